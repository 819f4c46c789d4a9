import net from 'node:net';

interface Pair {
  client: net.Socket;
  upstream: net.Socket;
  held: Array<[net.Socket, Buffer]>;
}

/**
 * A TCP proxy in front of a real server that can stop passing bytes, as a paused or partitioned database
 * does: connections are still accepted (the kernel does that), nothing is answered. Bytes that arrive while
 * paused are held and passed on at `resume()`, unless their connection closed meanwhile.
 */
export async function pausableProxy(target: {
  host: string;
  port: number;
}): Promise<{ port: number; pause(): void; resume(): void; close(): Promise<void> }> {
  let paused = false;
  const pairs = new Set<Pair>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    const pair: Pair = { client, upstream, held: [] };
    pairs.add(pair);
    const forward = (to: net.Socket) => (chunk: Buffer) => {
      if (paused) pair.held.push([to, chunk]);
      else to.write(chunk);
    };
    client.on('data', forward(upstream));
    upstream.on('data', forward(client));
    const close = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    for (const socket of [client, upstream]) {
      socket.on('error', close);
      socket.on('close', close);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    pause: () => {
      paused = true;
    },
    resume: () => {
      paused = false;
      for (const pair of pairs) for (const [to, chunk] of pair.held.splice(0)) to.write(chunk);
    },
    close: async () => {
      for (const pair of pairs) {
        pair.client.destroy();
        pair.upstream.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
