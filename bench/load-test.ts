import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { runChatLoad, type ChatLoadReport, type OperationLine, type TurnCostLine } from './support/chat-load.ts';

/**
 * `npx tsx bench/load-test.ts [--chats 200] [--messages 20] [--concurrency 50] [--state disk|memory] [--pace ack|reply] [--json FILE]`
 * (`npm run load-test`): the load test of issue #30 through `hookgate dev` (bench/support/chat-load.ts).
 * Prints ack and reply latency (p50/p95/p99), throughput, the replies' accounting and the AWS
 * requests per turn by position in the chat; exits 1 when a message was lost, answered twice,
 * answered out of order, or not acked. docs/performance.md, "Load test", has a run's figures.
 */
const { values } = parseArgs({
  options: {
    chats: { type: 'string', default: '200' },
    messages: { type: 'string', default: '20' },
    concurrency: { type: 'string', default: '50' },
    state: { type: 'string', default: 'disk' },
    pace: { type: 'string', default: 'ack' },
    json: { type: 'string' },
  },
});
const count = (name: string, value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a whole number ≥ 1, not ${value}`);
  return n;
};
if (values.state !== 'disk' && values.state !== 'memory') throw new Error(`--state must be disk or memory, not ${values.state}`);
if (values.pace !== 'ack' && values.pace !== 'reply') throw new Error(`--pace must be ack or reply, not ${values.pace}`);

const report = await runChatLoad({
  chats: count('chats', values.chats),
  messages: count('messages', values.messages),
  concurrency: count('concurrency', values.concurrency),
  state: values.state,
  pace: values.pace,
  progress: (line) => console.log(`  … ${line}`),
});
console.log(reportText(report));
if (values.json) await writeFile(values.json, `${JSON.stringify(report, null, 2)}\n`);
const failed = report.lost + report.duplicated + report.unexpected + report.outOfOrderChats + (report.posted - report.acked);
process.exitCode = failed > 0 ? 1 : 0;

function reportText(r: ChatLoadReport): string {
  const ms = (x: number) => `${x.toFixed(x < 100 ? 1 : 0)} ms`;
  const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(' ');
  const line = (c: TurnCostLine) =>
    `${c.label.padEnd(8)} ${String(c.turns).padStart(5)} turns  ${c.requests.toFixed(2).padStart(6)} req  ` +
    `${c.readUnits.toFixed(2).padStart(6)} RRU  ${c.writeUnits.toFixed(2).padStart(6)} WRU  ${c.snsChunks.toFixed(2).padStart(5)} SNS  ` +
    `$${c.dollarsPerThousand.toFixed(5)}/1k  model ${c.modelCalls.toFixed(2)} calls ${(c.modelBytes / 1024).toFixed(2)} KiB`;
  return [
    `${r.options.chats} chats × ${r.options.messages} messages, ${r.options.concurrency} chats at a time, state ${r.options.state}, next message after the ${r.options.pace}`,
    `machine: ${r.machine.cpus} × ${r.machine.cpuModel}, Node ${r.machine.node}; load average before ${load(r.machine.loadBefore)}, after ${load(r.machine.loadAfter)}`,
    `acked ${r.acked}/${r.posted}${r.failedPosts.length ? ` (failed: ${r.failedPosts.join('; ')})` : ''}, replies ${r.replies}`,
    `lost ${r.lost}, duplicated ${r.duplicated}, unexpected ${r.unexpected}, chats out of order ${r.outOfOrderChats}`,
    `ack   latency p50 ${ms(r.ackMs.p50)}, p95 ${ms(r.ackMs.p95)}, p99 ${ms(r.ackMs.p99)} (n=${r.ackMs.n})`,
    `reply latency p50 ${ms(r.replyMs.p50)}, p95 ${ms(r.replyMs.p95)}, p99 ${ms(r.replyMs.p99)} (n=${r.replyMs.n})`,
    `resident memory ${r.rssMb.started.toFixed(0)} MB once dev started, peak ${r.rssMb.peak.toFixed(0)} MB, ${r.rssMb.end.toFixed(0)} MB at the end`,
    `wall ${(r.wallMs / 1000).toFixed(1)} s (acks done at ${(r.ackWallMs / 1000).toFixed(1)} s): ${r.acksPerSecond.toFixed(1)} acks/s, ${r.repliesPerSecond.toFixed(1)} replies/s (${r.repliesAfterAcksPerSecond.toFixed(1)}/s after the last ack)`,
    'AWS requests per turn by position in the chat (SQS receives not counted):',
    ...r.perPosition.map((c) => `  ${line(c)}`),
    `  first fifth: ${line(r.firstFifth)}`,
    `  last fifth:  ${line(r.lastFifth)}`,
    `outside turns, per message: ${r.outsideTurns.requests.toFixed(2)} req, $${r.outsideTurns.dollarsPerThousand.toFixed(5)}/1k (${operationsText(r.outsideTurns.operations)})`,
    `turn ${r.firstFifth.label}: ${operationsText(r.firstFifth.operations)}`,
    `turn ${r.lastFifth.label}: ${operationsText(r.lastFifth.operations)}`,
  ].join('\n');
}

function operationsText(operations: Record<string, OperationLine>): string {
  const units = (o: OperationLine) =>
    [o.readUnits ? `${o.readUnits.toFixed(2)} RRU` : '', o.writeUnits ? `${o.writeUnits.toFixed(2)} WRU` : '']
      .filter(Boolean)
      .join(', ');
  return Object.entries(operations)
    .map(([op, o]) => `${op} ${o.requests.toFixed(2)}${units(o) ? ` (${units(o)})` : ''}`)
    .join(', ');
}
