/** A regression's links (issues, pull requests), each shown by its address. */
export function LinkList({ links }: { links: readonly string[] }) {
  if (!links.length) return null;
  return (
    <ul className="link-list">
      {links.map((href) => (
        <li key={href}>
          <a href={href} rel="noreferrer noopener" target="_blank">
            {href.replace(/^https?:\/\//, "")}
          </a>
        </li>
      ))}
    </ul>
  );
}
