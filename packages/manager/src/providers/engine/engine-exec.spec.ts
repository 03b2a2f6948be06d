import { describe, expect, it } from 'vitest';
import { frames } from './engine-exec.ts';

const frame = (stream: number, text: string) => {
  const payload = Buffer.from(text);
  const header = Buffer.alloc(8);
  header[0] = stream;
  header.writeUInt32BE(payload.length, 4);
  return Buffer.concat([header, payload]);
};

async function* chunksOf(bytes: Buffer, size: number) {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

describe('exec stream frames', () => {
  it('reads the frames whatever the chunks cut (inside a header, inside a payload), in order', async () => {
    const stream = Buffer.concat([frame(1, 'out\n'), frame(2, 'err\n'), frame(1, ''), frame(1, 'é€\n')]);
    for (const size of [1, 3, 7, 8, 9, stream.length]) {
      const read = [];
      for await (const { stream: kind, bytes } of frames(chunksOf(stream, size)))
        read.push([kind, Buffer.from(bytes).toString()]);
      expect(read, `chunks of ${size}`).toEqual([
        [1, 'out\n'],
        [2, 'err\n'],
        [1, ''],
        [1, 'é€\n'],
      ]);
    }
  });
});
