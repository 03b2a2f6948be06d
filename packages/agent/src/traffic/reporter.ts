import { createSocket, type Socket } from 'node:dgram';
import { managerAuthorization, type AgentConfig } from '../config.ts';

export const QUIET_MS = 10 * 60_000;

/** `<190>Nov 26 00:40:00 site_agent_12: status=200 bytes=512` → 12 (nginx's syslog tag names the service). */
export function serviceIdOf(message: string): number | undefined {
  const match = message.match(/\bsite_agent_(\d+):/);
  return match ? Number(match[1]) : undefined;
}

/**
 * Listens for nginx access-log lines (syslog datagrams on a loopback address) and tells the manager
 * when a service sees traffic after QUIET_MS or more without any — one call, not one per request.
 */
export class TrafficReporter {
  private readonly lastSeen = new Map<number, number>();
  private socket: Socket | undefined;

  constructor(
    private readonly config: AgentConfig,
    private readonly now = () => Date.now(),
    private readonly log: Pick<Console, 'warn'> = console,
  ) {}

  /** Records one access; resolves once the manager has been told, when it had to be. */
  async seen(serviceId: number): Promise<boolean> {
    const time = this.now();
    const last = this.lastSeen.get(serviceId);
    this.lastSeen.set(serviceId, time);
    if (last !== undefined && time - last < QUIET_MS) return false;
    try {
      const response = await fetch(`${this.config.managerUrl}/api/v1/services/${serviceId}/last-access`, {
        method: 'POST',
        headers: managerAuthorization(this.config),
        signal: AbortSignal.timeout(this.config.requestTimeoutMs),
      });
      if (response.status !== 204) throw new Error(`answered ${response.status}`);
      return true;
    } catch (error) {
      this.lastSeen.delete(serviceId); // try again on the next request
      this.log.warn(`last-access for service ${serviceId} not reported: ${String(error)}`);
      return false;
    }
  }

  async listen(): Promise<string> {
    const [host, port] = splitAddress(this.config.nginx.syslogAddress);
    this.socket = createSocket(host.includes(':') ? 'udp6' : 'udp4');
    this.socket.on('message', (message) => {
      const id = serviceIdOf(message.toString('utf8'));
      if (id !== undefined) void this.seen(id);
    });
    await new Promise<void>((resolve) => this.socket!.bind(port, host, resolve));
    return `${host}:${this.socket.address().port}`;
  }

  close() {
    this.socket?.close();
  }
}

function splitAddress(address: string): [string, number] {
  const index = address.lastIndexOf(':');
  return [address.slice(0, index).replace(/^\[|\]$/g, ''), Number(address.slice(index + 1))];
}
