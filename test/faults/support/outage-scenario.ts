import { settle, until } from './fault-line.ts';
import { ACK, chatMessage, post, type ChatMessage, type FaultDev, type Platform } from './fault-dev.ts';

export interface OutageScenarioOptions {
  /** The five platforms that deliver with an id (a refused delivery is delivered again as the same one). */
  platforms: readonly Platform[];
  /** New messages per phase (before, during, after). */
  perPhase: number;
  /** Chats per platform the messages spread over. */
  chats: number;
  /** The messages' text tag and first number (unique per case, so replies are matched to their message). */
  tag: string;
  firstNumber: number;
  /** At least this long down: the messages of the `during` phase spread over it. */
  outageMs: number;
  /** How the store goes away and comes back. */
  takeDown(): Promise<void>;
  bringBack(): Promise<void>;
  /** After the last answer, how long to keep watching for a second one. */
  watchMs: number;
}

/** What an outage scenario saw; the case prints it in its line and asserts on it. */
export interface OutageFigures {
  messages: number;
  outageSeconds: number;
  /** First tries by status, e.g. `200x30 503x15`. */
  statusTally: string;
  twoxxDuring: number;
  fivexxDuring: number;
  /** First tries answered ≥ 500. */
  fivexx: number;
  /** First tries dropped or answered 3xx/4xx: none is expected. */
  other: number;
  /** Not acknowledged at first, delivered again after recovery. */
  redelivered: number;
  acknowledged: number;
  answered: number;
  lost: number;
  twice: number;
  /** The tagged text (`<tag> <phase> <n>`) of each acknowledged message, for cases that follow its observer events. */
  acknowledgedTexts: string[];
  /** Seconds from recovery to the first 2xx, and to the last acknowledged message's answer. */
  firstAckAfter: number | undefined;
  allAnsweredAfter: number;
}

interface Sent {
  message: ChatMessage;
  phase: 'before' | 'during' | 'after';
  statuses: (number | 'dropped')[];
}

/**
 * The outage of fault case 4, whatever is taken away: messages before, during and after it,
 * four at a time across the platforms and chats; every status recorded; what was refused
 * delivered again after recovery, as the platform would; then every acknowledged message
 * waited for, and watched a while longer for a second answer.
 *
 * @example
 * const figures = await runOutageScenario(fd, { ...sizes, takeDown: () => proxy.cut(), bringBack: () => proxy.restore() });
 */
export async function runOutageScenario(fd: FaultDev, options: OutageScenarioOptions): Promise<OutageFigures> {
  const sent: Sent[] = [];
  let n = options.firstNumber;
  let up: number | undefined;
  let firstAck: number | undefined;
  const acked = (s: Sent, status: number | 'dropped') => status === ACK[s.message.platform];
  const deliver = async (item: Sent) => {
    const status = await post(fd, item.message).catch(() => 'dropped' as const);
    item.statuses.push(status);
    if (up !== undefined && firstAck === undefined && acked(item, status)) firstAck = Date.now();
  };
  const phase = async (name: Sent['phase'], spreadMs = 0) => {
    const items = Array.from({ length: options.perPhase }, () => {
      n += 1;
      const platform = options.platforms[n % options.platforms.length]!;
      const item: Sent = {
        message: chatMessage(fd, platform, `${options.tag[0]}${n % options.chats}`, n, `${options.tag} ${name} ${n}`),
        phase: name,
        statuses: [],
      };
      sent.push(item);
      return item;
    });
    for (let i = 0; i < items.length; i += 4) {
      await Promise.all(items.slice(i, i + 4).map(deliver));
      if (spreadMs) await settle(spreadMs / Math.ceil(items.length / 4));
    }
  };

  await phase('before');
  await options.takeDown();
  const down = Date.now();
  await phase('during', options.outageMs);
  await options.bringBack();
  up = Date.now();
  await phase('after');
  const refused = sent.filter((s) => !s.statuses.some((st) => acked(s, st)));
  for (const item of refused) await deliver(item);

  const acknowledged = sent.filter((s) => s.statuses.some((st) => acked(s, st)));
  const textOf = new RegExp(`${options.tag} \\w+ \\d+`);
  const answersOf = async (items: Sent[]) =>
    Promise.all(
      items.map(async (s) => (await s.message.replies()).filter((t) => t.includes(s.message.body.match(textOf)![0])).length),
    );
  await until(
    () => answersOf(acknowledged),
    (counts) => counts.every((c) => c >= 1),
  );
  const allAnswered = Date.now();
  await settle(options.watchMs);
  const counts = await answersOf(acknowledged);

  const first = sent.map((s) => s.statuses[0]!);
  const tally = new Map<string, number>();
  for (const status of first) tally.set(String(status), (tally.get(String(status)) ?? 0) + 1);
  const during = sent.filter((s) => s.phase === 'during');
  const twoxxDuring = during.filter((s) => typeof s.statuses[0] === 'number' && s.statuses[0] < 300).length;
  const lost = counts.filter((c) => c === 0).length;
  return {
    messages: sent.length,
    outageSeconds: (up - down) / 1000,
    statusTally: [...tally].map(([s, c]) => `${s}x${c}`).join(' '),
    twoxxDuring,
    fivexxDuring: during.length - twoxxDuring,
    fivexx: first.filter((s) => typeof s === 'number' && s >= 500).length,
    other: first.filter((s) => s === 'dropped' || (s >= 300 && s < 500)).length,
    redelivered: refused.length,
    acknowledged: acknowledged.length,
    acknowledgedTexts: acknowledged.map((s) => s.message.body.match(textOf)![0]),
    answered: acknowledged.length - lost,
    lost,
    twice: counts.filter((c) => c > 1).length,
    firstAckAfter: firstAck === undefined ? undefined : (firstAck - up) / 1000,
    allAnsweredAfter: (allAnswered - up) / 1000,
  };
}

/** The common middle of a case-4 line: statuses, redeliveries, answers, timings. */
export function outageSummary(f: OutageFigures): { head: string; tail: string } {
  return {
    head: `first tries ${f.statusTally}; during: ${f.twoxxDuring} x 2xx, ${f.fivexxDuring} x 5xx`,
    tail: `${f.redelivered} not acknowledged delivered again after recovery; ${f.acknowledged} acknowledged, ${f.answered} answered, ${f.lost} lost, ${f.twice} twice; first 2xx ${f.firstAckAfter === undefined ? 'never' : `${f.firstAckAfter.toFixed(1)} s`} after recovery, all answered ${f.allAnsweredAfter.toFixed(1)} s after`,
  };
}
