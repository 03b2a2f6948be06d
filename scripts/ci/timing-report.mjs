// CI's timing report, printed before its last line: how long each step took, and the 20 slowest test
// files of the passes (from vitest's JSON reports), so the next engineer sees where the minutes go.
// Usage: timing-report.mjs STEPS_FILE END_SECONDS REPORT.json...
// STEPS_FILE has a line per step: the second it started and its name.
import { existsSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';

const [stepsFile, end, ...reports] = process.argv.slice(2);
const minutes = (seconds) =>
  `${Math.floor(seconds / 60)}:${String(Math.round(seconds % 60)).padStart(2, '0')}`;

const steps = readFileSync(stepsFile, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => {
    const space = line.indexOf(' ');
    return { start: Number(line.slice(0, space)), name: line.slice(space + 1) };
  });
console.log('timing: steps (m:ss)');
steps.forEach((step, i) => {
  const next = i + 1 < steps.length ? steps[i + 1].start : Number(end);
  console.log(`  ${minutes(next - step.start).padStart(6)}  ${step.name}`);
});
console.log(`  ${minutes(Number(end)).padStart(6)}  in all`);

const files = reports.filter(existsSync).flatMap((file) => {
  const pass = basename(file, '.json').replace(/^vitest-/, '');
  return JSON.parse(readFileSync(file, 'utf8')).testResults.map((result) => ({
    pass,
    name: result.name.replace(/^.*?\/(packages|scripts)\//, '$1/'),
    seconds: (result.endTime - result.startTime) / 1000,
  }));
});
files.sort((a, b) => b.seconds - a.seconds);
console.log('timing: the 20 slowest test files (s)');
for (const file of files.slice(0, 20)) {
  console.log(`  ${file.seconds.toFixed(1).padStart(6)}  ${file.pass.padEnd(8)}  ${file.name}`);
}
