/**
 * Splits text into lines of at most `width` characters, breaking after spaces, commas and dots.
 * A word longer than the width is first broken inside, after `_`, `=`, `-`, `/` or `:`
 * (`files_per_iteration=3` → `files_per_` `iteration=3`); a piece still over 1.5 widths is cut.
 */
export function wrapText(text: string, width: number): string[] {
  const words = text
    .split(/(?<=[\s,·])/)
    .flatMap((word) => (word.trimEnd().length > width ? word.split(/(?<=[_=\-/:])/) : [word]));
  const lines: string[] = [];
  let line = "";
  for (const word of words) {
    if (line && (line + word).trimEnd().length > width) {
      lines.push(line.trim());
      line = "";
    }
    line += word;
    while (line.length > width * 1.5) {
      lines.push(line.slice(0, width));
      line = line.slice(width);
    }
  }
  if (line.trim()) lines.push(line.trim());
  return lines;
}
