/** Splits text into lines of at most `width` characters, breaking after spaces, commas and dots. */
export function wrapText(text: string, width: number): string[] {
  const words = text.split(/(?<=[\s,·])/);
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
