// What the GitHub Actions runner does with what a step leaves, for tests that play the runner: it reads
// GITHUB_OUTPUT and GITHUB_STATE as actions/runner's FileCommandManager does (src/Runner.Worker/FileCommandManager.cs:
// lines `NAME=VALUE` or `NAME<<DELIMITER`, the value the lines up to DELIMITER alone on a line, LF line ends on
// Linux), and shows the log with its masks applied (`::add-mask::` hides a value from that line on).
import { readFileSync } from 'node:fs';

/** The name/value pairs of a file command's file; throws where the runner fails the step. */
export function parseFileCommands(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  let index = 0;
  const readLine = (): { line: string; newline: string } | undefined => {
    if (index >= text.length) return undefined;
    const start = index;
    const lf = text.indexOf('\n', index);
    if (lf < 0) {
      index = text.length;
      return { line: text.slice(start), newline: '' };
    }
    index = lf + 1;
    return { line: text.slice(start, lf), newline: '\n' };
  };
  for (let l = readLine(); l !== undefined; l = readLine()) {
    const line = l.line;
    if (line === '') continue;
    const eq = line.indexOf('=');
    const heredoc = line.indexOf('<<');
    if (eq >= 0 && (heredoc < 0 || eq < heredoc)) {
      out[line.slice(0, eq)] = line.slice(eq + 1);
    } else if (heredoc >= 0 && (eq < 0 || heredoc < eq)) {
      const name = line.slice(0, heredoc);
      const delimiter = line.slice(heredoc + 2);
      if (!name || !delimiter) throw new Error(`invalid file command line '${line}'`);
      const start = index;
      let end = index;
      for (let t = readLine(); t?.line !== delimiter; t = readLine()) {
        if (t === undefined) throw new Error(`matching delimiter not found '${delimiter}'`);
        end = index - t.newline.length;
      }
      out[name] = end > start ? text.slice(start, end) : '';
    } else throw new Error(`invalid file command line '${line}'`);
  }
  return out;
}

export function readFileCommands(path: string): Record<string, string> {
  return parseFileCommands(readFileSync(path, 'utf8'));
}

/** The log as the runner shows it: `::add-mask::` lines consumed, each masked value shown as `***` after them. */
export function maskedLog(text: string): string {
  const secrets: string[] = [];
  const shown: string[] = [];
  for (const line of text.split('\n')) {
    const m = /^::add-mask::(.*)$/.exec(line);
    if (m) {
      const value = m[1]!.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%');
      if (value) secrets.push(value);
      continue;
    }
    let l = line;
    for (const s of secrets) l = l.split(s).join('***');
    shown.push(l);
  }
  return shown.join('\n');
}
