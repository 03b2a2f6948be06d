import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import { SimulatedShell } from '../shared/simulated-shell.ts';
import type { PveAuth } from './auth.ts';
import { pveError } from './errors.ts';
import type { PveContainer } from './state.ts';
import { TermproxyInput } from './termproxy-input.ts';

const FIRST_PORT = 5900;
const LAST_PORT = 5999;
/** termproxy waits 10 s for its one client, then 10 s for the ticket line. */
const WAIT_MS = 10_000;
/** The size `run_pty` gives the pseudo-terminal until the client resizes it. */
const INITIAL_SIZE = { cols: 80, rows: 20 };

/** One `termproxy` process: a port that takes one connection, a ticket pinned to it, the shell behind. */
export interface TermProxy {
  port: number;
  ct: PveContainer;
  /** `/vms/<vmid>`, the ACL path the ticket is bound to. */
  path: string;
  ticket: string;
  /** Settles when termproxy exits. */
  exited: Promise<void>;
  /** Why termproxy failed (its task's error), once it exited; unset when it ended well. */
  failure?: string;
}

interface Running extends TermProxy {
  exit(failure?: string): void;
  timer: NodeJS.Timeout;
}

/**
 * The termproxy processes of a fake cluster (`POST …/termproxy` starts one, `…/vncwebsocket` connects
 * to one). A port takes a single connection: once connected, or after 10 s, it is gone, so a ticket is
 * good for one session however young it still is.
 */
export class TermProxies {
  private readonly listening = new Map<number, Running>();
  /** Every termproxy running, by port (listening or serving its client). */
  private readonly busy = new Map<number, Running>();

  constructor(private readonly auth: PveAuth) {}

  /** `next_vnc_port` + termproxy started for `authid` on `ct`. */
  start(ct: PveContainer, authid: string): TermProxy {
    const port = this.freePort();
    const path = `/vms/${ct.vmid}`;
    let exited!: () => void;
    const proxy: Running = {
      port,
      ct,
      path,
      ticket: this.auth.vncTicket(authid, path, port),
      exited: new Promise<void>((resolve) => (exited = resolve)),
      exit: (failure) => {
        if (this.busy.get(port) !== proxy) return;
        this.busy.delete(port);
        clearTimeout(proxy.timer);
        this.listening.delete(port);
        if (failure) proxy.failure = failure;
        exited();
      },
      timer: setTimeout(() => proxy.exit('failed waiting for client: timed out'), WAIT_MS).unref(),
    };
    this.busy.set(port, proxy);
    this.listening.set(port, proxy);
    return proxy;
  }

  /** The termproxy listening on `port`, taken (it accepts one client); undefined when none is. */
  accept(port: number): Running | undefined {
    const proxy = this.listening.get(port);
    if (!proxy) return undefined;
    this.listening.delete(port);
    return proxy;
  }

  /** Serves the accepted connection: ticket line, `OK`, then the shell until either side ends. */
  serve(proxy: Running, ws: WebSocket, socket: Duplex): void {
    clearTimeout(proxy.timer);
    new TermproxyConnection(proxy, ws, socket, this.auth);
  }

  /** Consoles open or waiting for their client. */
  get count(): number {
    return this.busy.size;
  }

  private freePort(): number {
    for (let port = FIRST_PORT; port <= LAST_PORT; port++) if (!this.busy.has(port)) return port;
    throw pveError(500, `unable to find free port (${FIRST_PORT}-${LAST_PORT})`);
  }
}

class TermproxyConnection {
  private pending = Buffer.alloc(0);
  private shell?: SimulatedShell;
  private readonly input: TermproxyInput;
  private readonly ticketTimer: NodeJS.Timeout;

  constructor(
    private readonly proxy: Running,
    private readonly ws: WebSocket,
    private readonly socket: Duplex,
    private readonly auth: PveAuth,
  ) {
    this.input = new TermproxyInput({
      data: (bytes) => this.shell?.input(bytes),
      resize: (cols, rows) => this.shell?.resize({ cols, rows }),
    });
    this.ticketTimer = setTimeout(() => this.end('failed reading ticket: timed out'), WAIT_MS).unref();
    ws.on('message', (data: Buffer) => (this.shell ? this.input.push(data) : this.ticketLine(data)));
    ws.on('close', () => this.end());
  }

  /** `read_ticket_line` + `authenticate` (through `/access/vncticket`: ticket, port, VM.Console). */
  private ticketLine(data: Buffer): void {
    this.pending = Buffer.concat([this.pending, data]);
    const newline = this.pending.indexOf('\n');
    if (newline === -1) return;
    clearTimeout(this.ticketTimer);
    const line = this.pending.subarray(0, newline).toString('utf8');
    const rest = this.pending.subarray(newline + 1);
    const colon = line.indexOf(':');
    const authid = line.slice(0, colon);
    const ticket = line.slice(colon + 1);
    const { path, port } = this.proxy;
    if (
      colon === -1 ||
      ticket !== this.proxy.ticket ||
      !this.auth.verifyVncTicket(ticket, authid, path, port) ||
      !this.auth.holds(authid, 'VM.Console')
    ) {
      return this.end(
        colon === -1
          ? 'failed reading ticket: authentication data is invalid'
          : 'authentication request failed',
      );
    }
    this.ws.send(Buffer.from('OK'));
    this.startShell();
    if (rest.length) this.input.push(rest);
  }

  /** `dtach -A … lxc-console -n <vmid> -e -1` (the console of a stopped container exits at once). */
  private startShell(): void {
    const { ct } = this.proxy;
    const output = (chunk: Buffer) => this.ws.send(chunk);
    if (ct.status !== 'running') {
      output(
        Buffer.from(`lxc-console: ${ct.vmid}: tools/lxc_console.c: main: 131 ${ct.vmid} is not running\r\n`),
      );
      return this.end();
    }
    const hostname = String(ct.config.hostname ?? `CT${ct.vmid}`);
    this.shell = new SimulatedShell(hostname, INITIAL_SIZE, output, () => this.end());
  }

  /**
   * termproxy exits; pveproxy then drops the client's connection without a WebSocket close frame
   * (`client_do_disconnect`), once what the shell wrote has been sent.
   */
  private end(failure?: string): void {
    clearTimeout(this.ticketTimer);
    this.proxy.exit(failure);
    this.socket.end();
  }
}
