import type { Router } from '../shared/router.ts';
import { API, identity, ok, onlineNode } from './context.ts';
import type { PveContext } from './context.ts';
import { authId } from './auth.ts';
import { pveError } from './errors.ts';

const LXC = `${API}/nodes/:node/lxc/:vmid`;

/** The container console: `termproxy` starts a proxy, `vncwebsocket` connects the client to it. */
export function registerConsoleRoutes(router: Router, ctx: PveContext): void {
  router.post(`${LXC}/termproxy`, (req) => {
    const who = identity(ctx, req);
    const { vmid } = ctx.params(req);
    ctx.auth.checkPrivilege(who, `/vms/${vmid}`, 'VM.Console');
    onlineNode(ctx, req);
    const ct = ctx.state.container(req.params.node!, Number(vmid));
    const user = authId(who);
    const proxy = ctx.termproxies.start(ct, user);
    const task = ctx.tasks.start(req.params.node!, 'vncproxy', String(ct.vmid), who, {
      lines: [],
      until: proxy.exited,
      run: () => {
        if (proxy.failure) throw new Error(proxy.failure);
      },
    });
    return ok({ user, ticket: proxy.ticket, port: proxy.port, upid: task.upid });
  });

  /**
   * Checks the ticket against the caller (a token's ticket is bound to the token id) and answers
   * `{port}`; as a WebSocket upgrade (`ProxmoxFake.upgrade`) the socket is then joined to that port.
   * The caller authenticates like any API call: the `PVEAuthCookie` cookie (all a browser's WebSocket
   * can send) or an `Authorization: PVEAPIToken=…` header; no CSRF token, it is a GET.
   */
  router.get(`${LXC}/vncwebsocket`, (req) => {
    const who = identity(ctx, req);
    const { vmid, port, vncticket } = ctx.params(req);
    ctx.auth.checkPrivilege(who, `/vms/${vmid}`, 'VM.Console');
    if (!ctx.auth.verifyVncTicket(String(vncticket), authId(who), `/vms/${vmid}`, Number(port))) {
      throw pveError(401, 'permission denied - invalid PVEVNC ticket');
    }
    return ok({ port: String(port) });
  });
}
