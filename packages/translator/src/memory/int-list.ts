/** A growable list of 32-bit integers: 4 bytes an item, where an array of numbers takes 8. */
export class IntList {
  private data: Int32Array;
  length = 0;

  constructor(capacity = 4) {
    this.data = new Int32Array(capacity);
  }

  push(value: number) {
    if (this.length === this.data.length) {
      const grown = new Int32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = value;
  }

  at(index: number): number {
    return this.data[index]!;
  }

  /** Gives back the room the list grew into beyond its items. */
  trim() {
    if (this.data.length > this.length) this.data = this.data.slice(0, Math.max(1, this.length));
  }
}
