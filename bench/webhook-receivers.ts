/**
 * The webhook benchmark's receivers, in a process of their own (as real receivers are elsewhere): the load
 * generator's event loop does not delay an arrival's timestamp. Started by bench/webhooks.ts with fork(); one server
 * for every endpoint (told apart by path): healthy ones answer 204, `/slow…` after 10 s, `/failing` 500. Reports its
 * address, then each delivery as it arrives, to the parent.
 */
import { startReceiver } from '../support/webhook-receiver.js';

const receiver = await startReceiver();
receiver.answer((delivery) => {
  process.send!({ path: delivery.path, headers: delivery.headers, body: delivery.body, at: delivery.at });
  return delivery.path.startsWith('/slow')
    ? { status: 204, delayMs: 10_000 }
    : { status: delivery.path === '/failing' ? 500 : 204 };
});
process.send!({ url: receiver.url('') });
process.on('disconnect', () => void receiver.close().then(() => process.exit(0)));
