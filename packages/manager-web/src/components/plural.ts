/** "1 container", "2 containers": a count with its noun in the right number (`many` when not just +s). */
export const plural = (count: number, noun: string, many = `${noun}s`) =>
  `${count.toLocaleString('en-US')} ${count === 1 ? noun : many}`;
