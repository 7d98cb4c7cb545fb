import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One scripted answer of the fake model, optionally sent only after `delayMs`. */
export type ScriptedReply = ScriptedAnswer & { delayMs?: number };
type ScriptedAnswer =
  /** A final text answer. */
  | { content: string }
  /** Tool calls: `arguments` objects are JSON-encoded on the wire. */
  | { tool_calls: { name: string; arguments: unknown; id?: string }[]; content?: string | null }
  /** An HTTP error (e.g. 429, 503) with an optional body. */
  | { status: number; body?: string }
  /** A 200 whose body is given raw (invalid responses). */
  | { raw: string };

export interface RecordedRequest {
  headers: IncomingHttpHeaders;
  path: string;
  /** The request body's size on the wire. */
  bytes: number;
  body: {
    model: string;
    messages: { role: string; content: string | null; tool_calls?: unknown[]; tool_call_id?: string }[];
    tools?: { type: string; function: { name: string } }[];
    [key: string]: unknown;
  };
}

export interface FakeModelServerOptions {
  /**
   * Answers a request when nothing is scripted (a load test's echo of the last user message);
   * without it, such a request gets a 500.
   */
  answer?: (body: RecordedRequest['body']) => ScriptedReply;
}

export interface FakeModelServer {
  /** Pass as HOOKGATE_MODEL_BASE_URL: requests go to `${baseUrl}/chat/completions`. */
  baseUrl: string;
  requests: RecordedRequest[];
  /** Appends replies to the script, answered in order. */
  script(...replies: ScriptedReply[]): void;
  /** Replies not yet used. */
  remaining(): number;
  close(): Promise<void>;
}

/**
 * A real HTTP server speaking the OpenAI `/chat/completions` wire format with scripted
 * replies (tool calls included), recording every request. An unscripted request gets a 500
 * naming the problem, so a test that under-scripts fails loudly, unless `options.answer` is
 * given: then it answers.
 *
 * @example
 * const model = await startFakeModelServer();
 * model.script({ tool_calls: [{ name: 'terminal', arguments: { command: 'ls' } }] }, { content: 'done' });
 * // … HOOKGATE_MODEL_BASE_URL = model.baseUrl …
 * await model.close();
 * // An echo, for load: every request answered from its own last user message.
 * const echo = await startFakeModelServer({ answer: (body) => ({ content: `echo ${body.messages.at(-1)?.content}` }) });
 */
export async function startFakeModelServer(options: FakeModelServerOptions = {}): Promise<FakeModelServer> {
  const queue: ScriptedReply[] = [];
  const requests: RecordedRequest[] = [];
  let callId = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let delayMs = 0;
      const send = (status: number, body: string) => {
        const answer = () => {
          if (res.destroyed) return; // the client gave up waiting
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(body);
        };
        if (delayMs > 0) setTimeout(answer, delayMs).unref();
        else answer();
      };
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions')
        return send(404, JSON.stringify({ error: { message: `no route ${req.method} ${req.url}` } }));
      const raw = Buffer.concat(chunks);
      let body: RecordedRequest['body'];
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        return send(400, JSON.stringify({ error: { message: 'body is not JSON' } }));
      }
      requests.push({ headers: req.headers, path: req.url, bytes: raw.length, body });
      const reply = queue.shift() ?? options.answer?.(body);
      if (!reply) return send(500, JSON.stringify({ error: { message: 'fake model server: no scripted reply left' } }));
      delayMs = reply.delayMs ?? 0;
      if ('status' in reply)
        return send(reply.status, reply.body ?? JSON.stringify({ error: { message: `scripted ${reply.status}` } }));
      if ('raw' in reply) return send(200, reply.raw);
      const message =
        'tool_calls' in reply
          ? {
              role: 'assistant',
              content: reply.content ?? null,
              tool_calls: reply.tool_calls.map((call) => ({
                id: call.id ?? `call_${++callId}`,
                type: 'function',
                function: {
                  name: call.name,
                  arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
                },
              })),
            }
          : { role: 'assistant', content: reply.content };
      send(
        200,
        JSON.stringify({
          id: `chatcmpl-${requests.length}`,
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: body.model,
          choices: [{ index: 0, message, finish_reason: 'tool_calls' in reply ? 'tool_calls' : 'stop' }],
          usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    script: (...replies) => queue.push(...replies),
    remaining: () => queue.length,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
