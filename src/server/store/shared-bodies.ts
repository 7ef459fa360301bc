// The bodies a journal keeps once, for both engines: an answer given as a Buffer is one the server
// keeps and hands out again (a charge's record, read many times), and so are a detail's shared
// members (a proxy's findings of that record). The same buffer gets one ref for this process (a
// random part keeps several processes' refs apart), sent with its bytes the first time (and again
// every 10 s, so a store that forgets bodies no entry names after a grace keeps those in use), by
// name after. The main thread thus neither copies a polled record into every entry, nor sends it again.

/** How long a ref sent is trusted to be still kept (a store removes a body no entry names only after a longer grace). */
export const RESEND_MS = 10_000;

export type BodyRefs = ReturnType<typeof createBodyRefs>;

export function createBodyRefs(nonce: string) {
  const sent = new WeakMap<Buffer, { ref: string; at: number }>();
  let count = 0;
  /** the ref of `body`; `send(ref, body)` is called when its bytes are to go with it */
  const refOf = (body: Buffer, now: number, send: (ref: string, body: Buffer) => void): string => {
    let known = sent.get(body);
    if (!known || now - known.at > RESEND_MS) {
      known = { ref: known?.ref ?? `${nonce}.${++count}`, at: now };
      sent.set(body, known);
      send(known.ref, body);
    }
    return known.ref;
  };
  /** the bytes of `body` did not reach the store (its batch failed): they go again with its next use */
  const unsent = (body: Buffer): void => {
    const known = sent.get(body);
    if (known) known.at = -Infinity;
  };
  return Object.assign(refOf, { unsent });
}
