// One certificate pass of the agent in a process of its own, for the test that stops it half-way:
// `acme-run.ts <snapshot.json>`, configured by the agent's environment.
import { readFileSync } from 'node:fs';
import { keepCertificates } from '../src/acme/certificates.ts';
import { readAgentConfig } from '../src/config.ts';

await keepCertificates(readAgentConfig(), [], JSON.parse(readFileSync(process.argv[2]!, 'utf8')));
