/**
 * Group commit for a store write: calls that arrive while a batch is being written wait and go
 * together in the next one, so N concurrent callers cost one statement (one round trip, one commit)
 * instead of N. A lone caller is written at once (after the current task, so calls made in the
 * same task share it); under load the batches grow by themselves. Each caller is
 * answered once the batch that holds it has committed.
 *
 * Hand-written rather than DataLoader: DataLoader gathers one tick's calls, while what pays here is
 * gathering everything that arrives during the previous write's round trip.
 */
/**
 * Writes a batch; answers each item in order, so one failed row fails only its own caller. A
 * rejection fails the whole batch. `join` takes into the batch, while it is being written, the
 * items queued since it started that `fits` accepts (in arrival order, while there is room); they
 * are answered after the batch's own, in the order `join` returned them.
 */
export type BatchWrite<In, Out> = (
  batch: readonly In[],
  join: Join<In>,
) => Promise<readonly PromiseSettledResult<Out>[]>;

/** Takes queued items that `fits` accepts into the batch being written (see `BatchWrite`). */
export type Join<In> = (fits: (item: In) => boolean) => In[];

interface Queued<In, Out> {
  readonly item: In;
  readonly resolve: (out: Out) => void;
  readonly reject: (cause: unknown) => void;
}

export function coalesce<In, Out>(write: BatchWrite<In, Out>, maxBatch: number): (item: In) => Promise<Out> {
  const queue: Queued<In, Out>[] = [];
  let writing = false;
  let scheduled = false;

  const drain = async (): Promise<void> => {
    scheduled = false;
    writing = true;
    while (queue.length > 0) {
      const batch = queue.splice(0, maxBatch);
      const join: Join<In> = (fits) => {
        const joined: In[] = [];
        for (let i = 0; i < queue.length && batch.length < maxBatch; ) {
          if (!fits(queue[i]!.item)) {
            i++;
            continue;
          }
          const [queued] = queue.splice(i, 1);
          batch.push(queued!);
          joined.push(queued!.item);
        }
        return joined;
      };
      try {
        const outs = await write(
          batch.map((queued) => queued.item),
          join,
        );
        for (const [i, queued] of batch.entries()) {
          const out = outs[i];
          if (out?.status === 'fulfilled') queued.resolve(out.value);
          else queued.reject(out ? out.reason : new Error('the batch write gave no answer'));
        }
      } catch (cause) {
        for (const queued of batch) queued.reject(cause);
      }
    }
    writing = false;
  };

  return (item) =>
    new Promise<Out>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      if (writing || scheduled) return;
      scheduled = true;
      queueMicrotask(() => void drain());
    });
}

/**
 * The fallback of a batch write: each item written on its own, in arrival order (so the first of
 * two that collide wins, as it would have alone), each answered with its own outcome.
 */
export async function oneByOne<In, Out>(
  items: readonly In[],
  write: (item: In) => Promise<Out>,
): Promise<PromiseSettledResult<Out>[]> {
  const answers: PromiseSettledResult<Out>[] = [];
  for (const item of items) answers.push(...(await Promise.allSettled([write(item)])));
  return answers;
}
