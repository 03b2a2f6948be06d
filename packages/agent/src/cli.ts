import { Command } from 'commander';
import { ConfigError } from '@app/server-kit';
import { readAgentConfig, readServicesConfig } from './config.ts';
import { dryRun, readSnapshotFile } from './dry-run.ts';
import { runOnce } from './run.ts';
import { TrafficReporter } from './traffic/reporter.ts';

const program = new Command('site-agent').description(
  "Keeps this site's nginx and dnsmasq in step with the manager (configured from the environment: SITE_ID, MANAGER_URL, AGENT_TOKEN, STATE_DIRECTORY).",
);

const fail = (error: unknown) => {
  console.error(
    error instanceof ConfigError
      ? `site-agent: configuration error: ${error.message}`
      : `site-agent: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
};

program
  .command('run', { isDefault: true })
  .description(
    'check in once, apply a new snapshot if there is one, report and exit (run by the timer every 30 s)',
  )
  .action(async () => {
    const outcome = await runOnce(readAgentConfig());
    const failed = Object.entries(outcome.applied).filter(([, result]) => result.result === 'failure');
    if (!outcome.changed) console.log('site-agent: configuration unchanged');
    process.exit(failed.length ? 2 : 0);
  });

program
  .command('report-traffic')
  .description('listen for nginx access logs and report services that see traffic after 10 quiet minutes')
  .action(async () => {
    const reporter = new TrafficReporter(readAgentConfig());
    console.log(`site-agent: listening for access logs on ${await reporter.listen()}`);
    const stop = () => {
      reporter.close();
      process.exit(0);
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });

program
  .command('dry-run')
  .description(
    'print the nginx and dnsmasq files a run would write for a saved snapshot; touches neither service',
  )
  .argument('<snapshot.json>', 'a check-in answer ({data: {site, proxy}}) saved to a file')
  .action(async (file: string) => {
    const { problems, files } = dryRun(readServicesConfig(), await readSnapshotFile(file));
    for (const { path, content } of files) console.log(`# ${path}\n${content}`);
    for (const problem of problems) console.error(`site-agent: would refuse the snapshot: ${problem}`);
    process.exit(problems.length ? 1 : 0);
  });

program.parseAsync().catch(fail);
