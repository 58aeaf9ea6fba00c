// The JavaScript implementation's own time for a recorded conformance run, for
// `cargo xtask bench` (js_harness_share).
//
//   node adapter_replay.mjs ADAPTER.mjs REQUESTS ANSWERS [REQUESTS ANSWERS ...]
//
// Each pair of files is one adapter process of one run (the runner uses two when its
// checks fork): REQUESTS holds every request line the runner sent to it (`tee` in
// front of it), ANSWERS every line it answered (`tee` behind it). For each pair this
// hands the requests, as the bytes that adapter's stdin received, to the adapter's own
// line handler (serveLines of ADAPTER.mjs, what its stdin listener feeds) in this
// process, without a pipe or a runner, checks that each answer line is the one that
// process recorded, and prints, over all pairs, key=value lines: replay_requests,
// replay_answers, replay_ms (wall time of the handler alone: the files are read and
// the module imported before the clock starts) and replay_cpu_ms (this process's CPU
// time over the same span). Exits 1 when an answer differs or the counts do not match.

import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

const [modulePath, ...files] = process.argv.slice(2);
if (!modulePath || files.length === 0 || files.length % 2 !== 0) {
  console.error('usage: node adapter_replay.mjs ADAPTER.mjs REQUESTS ANSWERS [REQUESTS ANSWERS ...]');
  process.exit(2);
}
const splitLines = (text) => {
  const parts = text.split('\n');
  if (parts.length && parts[parts.length - 1] === '') parts.pop();
  return parts;
};
const pairs = [];
for (let i = 0; i < files.length; i += 2) {
  pairs.push({
    name: files[i + 1],
    requests: readFileSync(files[i]),
    recorded: splitLines(readFileSync(files[i + 1], 'utf8')),
  });
}
const { serveLines } = await import(pathToFileURL(resolve(modulePath)).href);
if (typeof serveLines !== 'function') {
  console.error(`${modulePath} does not export serveLines`);
  process.exit(1);
}

const cpuStarted = process.cpuUsage();
const started = process.hrtime.bigint();
for (const pair of pairs) {
  const written = [];
  const lines = serveLines((text) => written.push(text));
  lines.push(pair.requests);
  lines.end();
  pair.written = written;
}
const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
const cpu = process.cpuUsage(cpuStarted);

let requestLines = 0;
let answerLines = 0;
for (const pair of pairs) {
  const answers = splitLines(pair.written.join(''));
  if (answers.length !== pair.recorded.length) {
    console.error(`error: ${pair.name}: ${answers.length} answers in process, ${pair.recorded.length} recorded`);
    process.exit(1);
  }
  for (let i = 0; i < answers.length; i += 1) {
    if (answers[i] !== pair.recorded[i]) {
      console.error(`error: ${pair.name}: answer ${i} differs:\n  in process ${answers[i].slice(0, 200)}\n  recorded   ${pair.recorded[i].slice(0, 200)}`);
      process.exit(1);
    }
  }
  answerLines += answers.length;
  for (const byte of pair.requests) if (byte === 0x0a) requestLines += 1;
}
console.log(`replay_requests=${requestLines}`);
console.log(`replay_answers=${answerLines}`);
console.log(`replay_ms=${elapsed.toFixed(3)}`);
console.log(`replay_cpu_ms=${((cpu.user + cpu.system) / 1e3).toFixed(3)}`);
