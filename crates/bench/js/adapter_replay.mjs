// The JavaScript implementation's own time for a recorded conformance run, for
// `cargo xtask bench` (js_harness_share).
//
//   node adapter_replay.mjs ADAPTER.mjs REQUESTS ANSWERS
//
// REQUESTS holds every request line the runner sent to the JavaScript adapter during
// one run (`tee` in front of it), ANSWERS every line the adapter answered (`tee` behind
// it). This hands the requests, as the bytes the adapter's stdin received, to the
// adapter's own line handler (serveLines of ADAPTER.mjs, what its stdin listener feeds)
// in this process, without a pipe or a runner, checks that each answer line is the
// recorded one, and prints key=value lines: replay_requests, replay_answers, replay_ms
// (wall time of the handler alone: the files are read and the module imported before
// the clock starts) and replay_cpu_ms (this process's CPU time over the same span).
// Exits 1 when an answer differs or the counts do not match.

import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

const [modulePath, requestsPath, answersPath] = process.argv.slice(2);
if (!modulePath || !requestsPath || !answersPath) {
  console.error('usage: node adapter_replay.mjs ADAPTER.mjs REQUESTS ANSWERS');
  process.exit(2);
}
const requests = readFileSync(requestsPath);
const recorded = readFileSync(answersPath, 'utf8').split('\n');
if (recorded.length && recorded[recorded.length - 1] === '') recorded.pop();
const { serveLines } = await import(pathToFileURL(resolve(modulePath)).href);
if (typeof serveLines !== 'function') {
  console.error(`${modulePath} does not export serveLines`);
  process.exit(1);
}

const written = [];
const cpuStarted = process.cpuUsage();
const started = process.hrtime.bigint();
const lines = serveLines((text) => written.push(text));
lines.push(requests);
lines.end();
const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
const cpu = process.cpuUsage(cpuStarted);

const answers = written.join('').split('\n');
if (answers.length && answers[answers.length - 1] === '') answers.pop();
if (answers.length !== recorded.length) {
  console.error(`error: ${answers.length} answers in process, ${recorded.length} recorded`);
  process.exit(1);
}
for (let i = 0; i < answers.length; i += 1) {
  if (answers[i] !== recorded[i]) {
    console.error(`error: answer ${i} differs:\n  in process ${answers[i].slice(0, 200)}\n  recorded   ${recorded[i].slice(0, 200)}`);
    process.exit(1);
  }
}
let requestLines = 0;
for (const byte of requests) if (byte === 0x0a) requestLines += 1;
console.log(`replay_requests=${requestLines}`);
console.log(`replay_answers=${answers.length}`);
console.log(`replay_ms=${elapsed.toFixed(3)}`);
console.log(`replay_cpu_ms=${((cpu.user + cpu.system) / 1e3).toFixed(3)}`);
