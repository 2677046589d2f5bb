// Text from the service must never drive the user's terminal (cli-contract.md §3). One sanitiser for every
// table cell, object key, notice, warning, hint, spinner and error line.

/**
 * Escape sequences first, whole: CSI (`ESC [` … final byte, or the 8-bit CSI U+009B), OSC/DCS/SOS/PM/APC
 * strings up to their terminator (BEL or ST, either form), then any other `ESC x` pair.
 */
const SEQUENCES =
  // eslint-disable-next-line no-control-regex
  /(?:\u001b\[|\u009b)[\u0030-\u003f]*[\u0020-\u002f]*[\u0040-\u007e]?|(?:\u001b[\]PX^_]|[\u009d\u0090\u0098\u009e\u009f])[\s\S]*?(?:\u0007|\u001b\\|\u009c|$)|\u001b[\s\S]?/g;
/** Line breaks and tabs become a space, so a cell or a notice stays on its line. */
const SPACES = /[\t\n\v\f\r]+/g;
/** The remaining C0 and C1 controls, DEL, and the bidirectional embeddings, overrides and isolates. */
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** `text` with every terminal control removed: safe to print on a terminal, on one line. */
export function terminalText(text: string): string {
  return text.replace(SEQUENCES, '').replace(SPACES, ' ').replace(CONTROLS, '');
}
