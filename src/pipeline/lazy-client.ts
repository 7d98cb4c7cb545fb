/**
 * An SDK client given either as itself or as a loader that builds it on first use.
 *
 * Why: every AWS SDK client package costs tens of milliseconds to load. A function that
 * only sometimes needs one (the gateway publishes an observer event on a /reset, not on
 * every webhook; S3 holds only oversized payloads) should not pay for it at every cold
 * start, so the data plane hands those out as loaders that `import()` the package then.
 */
export type ClientSource<T> = T | (() => Promise<T>);

/** The client of a `ClientSource` (built by its loader, if that is what it is). */
export function resolveClient<T extends object>(source: ClientSource<T>): Promise<T> {
  return typeof source === 'function' ? (source as () => Promise<T>)() : Promise.resolve(source);
}

/**
 * A loader that runs `load` once, on first call, and hands out the same client after;
 * `built()` is that client, or undefined while nobody has asked for it.
 *
 * @example
 * const sns = lazyClient(async () => new (await import('@aws-sdk/client-sns')).SNSClient({}));
 * const client = await sns(); // loads the package now
 * sns.built()?.destroy();
 */
export function lazyClient<T>(load: () => Promise<T>): (() => Promise<T>) & { built(): T | undefined } {
  let promise: Promise<T> | undefined;
  let client: T | undefined;
  const get = () => {
    promise ??= load().then(
      (built) => (client = built),
      (error: unknown) => {
        promise = undefined; // a failed load (e.g. a bad region) is tried again next time
        throw error;
      },
    );
    return promise;
  };
  return Object.assign(get, { built: () => client });
}
