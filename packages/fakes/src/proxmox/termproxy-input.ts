export interface TermproxyInputHandlers {
  data(bytes: Buffer): void;
  resize(cols: number, rows: number): void;
}

/**
 * What the client sends termproxy once authenticated (pve-xtermjs termproxy `process_queue`):
 * `0:<byte length>:<bytes>` keystrokes, `1:<cols>:<rows>:` a resize, `2` a ping; anything else is
 * skipped a byte at a time. A message may arrive in pieces.
 */
export class TermproxyInput {
  private buffer = Buffer.alloc(0);
  /** Bytes of the current data message still to come. */
  private remaining = 0;

  constructor(private readonly handlers: TermproxyInputHandlers) {}

  push(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    while (this.buffer.length) {
      if (this.remaining) {
        const bytes = this.buffer.subarray(0, this.remaining);
        this.buffer = this.buffer.subarray(bytes.length);
        this.remaining -= bytes.length;
        this.handlers.data(bytes);
        continue;
      }
      if (!this.next()) return;
    }
  }

  /** Takes one message head off the buffer; false when it is not all there yet. */
  private next(): boolean {
    const type = this.buffer[0];
    if (type !== 0x30 && type !== 0x31) {
      this.buffer = this.buffer.subarray(1);
      return true;
    }
    const fields = type === 0x30 ? 1 : 2;
    const numbers: number[] = [];
    let offset = 2;
    while (numbers.length < fields) {
      const end = this.buffer.indexOf(':', offset);
      if (end === -1) return false;
      numbers.push(Number(this.buffer.subarray(offset, end).toString('latin1')));
      offset = end + 1;
    }
    this.buffer = this.buffer.subarray(offset);
    if (type === 0x30) this.remaining = numbers[0]! || 0;
    else this.handlers.resize(numbers[0]!, numbers[1]!);
    return true;
  }
}
