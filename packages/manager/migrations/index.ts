import type { MigrationSet } from '@app/server-kit';
import { identity } from './001_identity.ts';
import { fleet } from './002_fleet.ts';
import { containers } from './003_containers.ts';
import { siteAgents } from './004_site_agents.ts';
import { imageEnvironment } from './005_image_environment.ts';
import { configChangeTriggers } from './006_config_change_triggers.ts';
import { identityHardening } from './007_identity_hardening.ts';
import { nodeTlsFingerprint } from './008_node_tls_fingerprint.ts';
import { agentTokens } from './009_agent_tokens.ts';
import { madeInstance } from './010_made_instance.ts';
import { volumeOwners } from './011_volume_owners.ts';
import { jobContainer } from './012_job_container.ts';
import { jobResult } from './013_job_result.ts';
import { appliedEnvironment } from './014_applied_environment.ts';
import { auditEvents } from './015_audit_events.ts';
import { oneActivePowerJob } from './016_one_active_power_job.ts';
import { metrics } from './017_metrics.ts';
import { certificates } from './018_certificates.ts';
import { alertRules } from './019_alert_rules.ts';
import { httpsToggles } from './020_https_toggles.ts';
import { jobLanes } from './021_job_lanes.ts';
import { principalChangeTriggers } from './022_principal_change_triggers.ts';

export const managerMigrations: MigrationSet = (dialect) => ({
  '001_identity': identity,
  '002_fleet': fleet(dialect),
  '003_containers': containers(dialect),
  '004_site_agents': siteAgents(dialect),
  '005_image_environment': imageEnvironment,
  '006_config_change_triggers': configChangeTriggers(dialect),
  '007_identity_hardening': identityHardening(dialect),
  '008_node_tls_fingerprint': nodeTlsFingerprint,
  '009_agent_tokens': agentTokens,
  '010_made_instance': madeInstance,
  '011_volume_owners': volumeOwners(dialect),
  '012_job_container': jobContainer(dialect),
  '013_job_result': jobResult,
  '014_applied_environment': appliedEnvironment,
  '015_audit_events': auditEvents(dialect),
  '016_one_active_power_job': oneActivePowerJob,
  '017_metrics': metrics,
  '018_certificates': certificates,
  '019_alert_rules': alertRules(dialect),
  '020_https_toggles': httpsToggles,
  '021_job_lanes': jobLanes,
  '022_principal_change_triggers': principalChangeTriggers(dialect),
});
