import type { AgentConfig } from '../config.ts';
import { isSafePath } from '../config-values.ts';
import { renderDhcpHosts, renderDnsmasqConf, renderHosts } from '../render/dnsmasq.ts';
import { renderNginxHttp, renderNginxStream } from '../render/nginx.ts';
import type { Snapshot } from '../snapshot.ts';
import { proxyProblems, siteProblems } from '../snapshot-check.ts';
import type { FileContent } from './files.ts';
import { confirmedReload } from './nginx-reload.ts';
import { mainPid, pidFrom, run, signal, sleep, systemdActive } from './process.ts';

/** A service the agent keeps in step with the snapshot: its files, its own check, its reload. */
export interface ManagedService {
  name: string;
  /** The values of the snapshot this service's files would carry that do not fit their grammar. */
  problems(snapshot: Snapshot): string[];
  files(snapshot: Snapshot): FileContent[];
  validate(): Promise<void>;
  /** Makes the running service take the files; `changed` are the paths that differ. */
  reload(changed: string[]): Promise<void>;
  /** systemd ActiveState, or active/inactive from the pid file. */
  state(): Promise<string>;
}

async function stateOf(unit: string, pidFile: string): Promise<string> {
  if (await systemdActive(unit)) return 'active';
  try {
    const state = await run('systemctl', ['show', '-p', 'ActiveState', '--value', unit], 5_000);
    if (state && state !== 'inactive') return state;
  } catch {
    // no systemd here: the pid file tells
  }
  return (await pidFrom(pidFile)) ? 'active' : 'inactive';
}

export function nginxService(config: AgentConfig['nginx']): ManagedService {
  return {
    name: 'nginx',
    problems: (snapshot) => [
      ...proxyProblems(snapshot.proxy),
      // Certificates and ACME answers are read from these folders, quoted into the configuration.
      ...[
        ['CERT_DIR', config.certDir],
        ['STATE_DIRECTORY', config.acmeDir],
      ].flatMap(([name, path]) =>
        isSafePath(path!) ? [] : [`${name} ${JSON.stringify(path)} is not a safe path`],
      ),
    ],
    files: (snapshot) => [
      { path: config.httpConf, content: renderNginxHttp(config, snapshot.proxy) },
      { path: config.streamConf, content: renderNginxStream(config, snapshot.proxy) },
    ],
    validate: async () => {
      await run(config.bin, ['-t', '-q', '-c', config.mainConf]);
    },
    reload: async () => {
      const systemd = await systemdActive(config.unit);
      const master = systemd ? await mainPid(config.unit) : await pidFrom(config.pidFile);
      if (!master) throw new Error(`no running nginx master (${systemd ? config.unit : config.pidFile})`);
      await confirmedReload(master, () =>
        systemd ? run('systemctl', ['reload', config.unit]) : process.kill(master, 'SIGHUP'),
      );
    },
    state: () => stateOf(config.unit, config.pidFile),
  };
}

/**
 * dnsmasq re-reads host files on SIGHUP but its main settings only when it starts: a change to our
 * settings file restarts it, a change to the host files reloads it.
 */
export function dnsmasqService(config: AgentConfig['dnsmasq']): ManagedService {
  const restart = async () => {
    if (await systemdActive(config.unit)) return void (await run('systemctl', ['restart', config.unit]));
    const pid = await pidFrom(config.pidFile);
    if (pid) {
      process.kill(pid, 'SIGTERM');
      for (let waited = 0; (await pidFrom(config.pidFile)) === pid && waited < 5_000; waited += 50)
        await sleep(50);
    }
    await run(config.bin, [`--conf-file=${config.mainConf}`, `--pid-file=${config.pidFile}`]);
    for (let waited = 0; !(await pidFrom(config.pidFile)); waited += 50) {
      if (waited > 5_000) throw new Error('dnsmasq did not start');
      await sleep(50);
    }
  };
  return {
    name: 'dnsmasq',
    problems: (snapshot) => siteProblems(snapshot.site),
    files: (snapshot) => [
      { path: config.conf, content: renderDnsmasqConf(config, snapshot.site) },
      { path: config.hostsFile, content: renderHosts(snapshot.site) },
      { path: config.dhcpHostsFile, content: renderDhcpHosts(snapshot.site) },
    ],
    validate: async () => {
      await run(config.bin, ['--test', `--conf-file=${config.conf}`]);
      await run(config.bin, ['--test', `--conf-file=${config.mainConf}`]);
    },
    reload: async (changed) => {
      if (changed.includes(config.conf)) return restart();
      if (await systemdActive(config.unit)) await run('systemctl', ['kill', '-s', 'HUP', config.unit]);
      else await signal(config.pidFile, 'SIGHUP');
    },
    state: () => stateOf(config.unit, config.pidFile),
  };
}
