// Ground floor (src/base): imports nothing of ours but src/domain.
// Why a server could not bind, in words that say what to do; shared by `serve` and `webhooks listen`.

export function listenMessage(error: NodeJS.ErrnoException, host: string, port: number): string {
  if (error.code === 'EADDRINUSE') return `port ${port} on ${host} is already in use (choose another with --port, or --port 0 for a free one)`;
  if (error.code === 'EACCES') return `no permission to listen on ${host}:${port} (ports below 1024 need privileges)`;
  if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND') return `cannot listen on host ${host}: no such local address`;
  return `cannot listen on ${host}:${port}: ${error.message}`;
}
