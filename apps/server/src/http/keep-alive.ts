import type { Server, Socket } from 'node:net';

/**
 * Closes a kept-alive connection at its idle deadline only if the client has not sent its next
 * request in the meantime.
 *
 * Node closes an idle kept-alive socket from a timer, and timers run before the loop reads its
 * sockets. When the loop stalls past a connection's deadline (a long mark-compact, a process
 * stopped by a debugger or the host), the client's next request, sent in time, is already waiting
 * unread in the kernel when the timer fires. Node closes the socket anyway; the unread request
 * turns the close into a reset, and the client gets ECONNRESET for a request the server never
 * saw, a POST it cannot tell from one that failed half-way. With a listener on the server's
 * `timeout` event, Node leaves the socket to it: the close waits for the loop's next check phase,
 * after its read phase, and is skipped if a request came in.
 *
 * The server sets no other socket timeout (`server.timeout` is 0; the header and request deadlines
 * are enforced by Node's connection sweep, not by this event), so every event here is a
 * keep-alive deadline. A request that arrives is read by Node's own parser, which resets the
 * timeout and arms it again after that answer.
 */
export function closeIdleWithoutResets(server: Server): void {
  // `timeout` is an event of node:http's server (which is a node:net server), with the socket.
  server.on('timeout', (socket: Socket) => {
    const read = socket.bytesRead;
    setImmediate(() => {
      if (!socket.destroyed && socket.bytesRead === read) socket.destroy();
    });
  });
}
