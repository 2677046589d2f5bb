import { Writable } from 'node:stream';

/** A writable that keeps what it is given; `tty` makes it claim to be a terminal. */
export class Collect extends Writable {
  chunks: string[] = [];
  isTTY?: boolean;
  constructor(tty = false) {
    super();
    if (tty) this.isTTY = true;
  }
  override _write(chunk: Buffer | string, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    this.chunks.push(chunk.toString());
    cb();
  }
  get text(): string {
    return this.chunks.join('');
  }
}
