import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What a log line written while a delivery or a turn runs says about it. Kept per async
 * context (not per logger instance: Powertools' `appendKeys` is shared by every concurrent
 * turn of a process), so two turns running at once never label each other's lines.
 */
export interface LogContext {
  delivery_id?: string;
  chat_id?: string;
  turn_id?: string;
  platform?: string;
}

const storage = new AsyncLocalStorage<LogContext>();

/**
 * Runs `fn` with `fields` added to the current log context (an inner context never changes the
 * outer one's object).
 *
 * @example
 * await withLogContext({ delivery_id, chat_id: event.source.chat_id }, () => dispatch(delivery));
 */
export function withLogContext<T>(fields: LogContext, fn: () => T): T {
  return storage.run({ ...storage.getStore(), ...definedOnly(fields) }, fn);
}

/**
 * Adds fields to the context already in force (e.g. the turn id, known only once the turn
 * starts inside a delivery's context). Outside any context it does nothing.
 */
export function annotateLogContext(fields: LogContext): void {
  const store = storage.getStore();
  if (store) Object.assign(store, definedOnly(fields));
}

/** The fields in force here (empty outside any delivery or turn). */
export function currentLogContext(): LogContext {
  return { ...storage.getStore() };
}

function definedOnly(fields: LogContext): LogContext {
  const out: LogContext = {};
  for (const [key, value] of Object.entries(fields) as [keyof LogContext, string | undefined][]) if (value) out[key] = value;
  return out;
}
