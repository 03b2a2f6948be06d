import { BASE_ERRORS, useCatalogue, type ErrorCatalogue } from '@app/server-kit';

/**
 * Every error code the manager answers with, its status and its default message. A new code goes here
 * first; `fail` and `errorsOf` accept no other, and the web client's union is generated from this list.
 */
export const MANAGER_ERRORS = {
  ...BASE_ERRORS,
  // Accounts and sign-in
  invalid_credentials: { status: 401, message: 'Wrong username or password.' },
  account_inactive: {
    status: 403,
    message: 'This account is not active: ask an administrator to activate it.',
  },
  csrf_invalid: {
    status: 403,
    message: 'Missing or invalid X-CSRF-Token header. Fetch one from GET /api/v1/csrf-token.',
  },
  oidc_enabled: { status: 403, message: 'Single sign-on is enabled: sign in with your identity provider.' },
  oidc_disabled: { status: 404, message: 'Single sign-on is not configured: sign in with your password.' },
  register_first: {
    status: 409,
    hidden: true,
    message: 'Register the first account (it becomes the administrator) before signing in.',
  },
  invalid_invite: {
    status: 400,
    alsoStatus: 404,
    message: 'This invitation is invalid or has expired: ask for a new one.',
  },
  email_mismatch: { status: 400, message: 'Register with the e-mail address the invitation was sent to.' },
  invalid_token: { status: 404, message: 'This reset link is invalid or has expired: request a new one.' },
  mismatch: { status: 400, message: 'The passwords do not match: type the same password twice.' },
  weak_password: { status: 400, message: 'The password is too short: choose a longer one.' },
  user_not_found: { status: 404, message: 'No active user has this name: check the spelling.' },
  has_containers: { status: 409, message: 'Delete or move its containers first.' },
  last_admin: {
    status: 409,
    message: 'This would leave no active administrator: make another user an administrator first.',
  },
  // Sites and nodes
  site_not_found: { status: 404, message: 'Site not found: pick an existing site.' },
  has_nodes: { status: 409, message: 'Delete or move the nodes of this site first.' },
  invalid_node_type: { status: 400, message: 'Unknown node type: choose one of the listed types.' },
  invalid_engine_host: {
    status: 400,
    message: 'An engine node needs apiUrl as unix:///path, tcp://host:port, http://… or https://….',
  },
  import_failed: {
    status: 502,
    message: 'Import from the hypervisor cluster failed: check its address and login.',
  },
  // Containers
  invalid_service: { status: 400, message: 'A service of the container is invalid: correct it.' },
  no_node: {
    status: 409,
    message: 'No node of this site can take a container: add capacity or another node.',
  },
  no_nvidia_node: { status: 409, message: 'No node of this site with NVIDIA GPUs can take a container.' },
  no_address: { status: 409, message: 'The site has no free address left: widen its DHCP range.' },
  no_port: { status: 409, message: 'Every external port of the transport range is in use: widen the range.' },
  already_owner: { status: 409, message: 'This user owns the container already.' },
  hostname_mismatch: {
    status: 409,
    message: 'The instance on the node has another name than the container; deletion aborted.',
  },
  node_unreachable: { status: 502, message: 'The node cannot be reached; try again later.' },
  provider_error: { status: 502, message: 'The node refused the operation; try again later.' },
  image_not_found: { status: 404, message: 'The image was not found: check its name and tag.' },
  registry_error: { status: 502, message: 'The image registry could not be asked; try again later.' },
  no_instance: {
    status: 409,
    message:
      'The container has no instance on its node: it is being created or its create failed. Retry or delete it.',
  },
  exec_unsupported: {
    status: 409,
    message:
      'This node has no API to run a command in a container (Proxmox VE): use SSH to the container or its console.',
  },
  create_not_failed: { status: 409, message: 'Only a container whose create failed can be created again.' },
  in_use: { status: 409, message: 'HTTP services still use this domain: remove them first.' },
  // Volume folders kept from deleted containers
  path_not_removable: {
    status: 409,
    message:
      'This folder does not have the shape of a volume folder the manager makes: remove it on the host.',
  },
  volume_in_use: {
    status: 409,
    message: 'A container has this volume folder again; it is not removed while that container has it.',
  },
  websocket_required: {
    status: 426,
    message: 'Open the terminal with a WebSocket upgrade (Connection: Upgrade, Upgrade: websocket).',
  },
  // Jobs, requests, mail
  job_finished: { status: 409, message: 'The job has already finished.' },
  too_many_streams: { status: 429, message: 'Too many open job streams: close some and try again.' },
  too_many_execs: {
    status: 429,
    message: 'Too many commands are waiting or running: wait for one to end, or cancel one.',
  },
  already_reviewed: { status: 409, message: 'The request was already reviewed.' },
  smtp_not_configured: {
    status: 409,
    message: 'E-mail is not set up: set smtpUrl and smtpNoreplyAddress in the settings.',
  },
  smtp_error: { status: 502, message: 'The mail server refused the message. Check the SMTP settings.' },
  // Certificates
  dns_challenge_unavailable: {
    status: 409,
    message:
      'The manager cannot answer DNS-01 for this domain: give it an ACME contact and a DNS provider key, or use HTTP-01.',
  },
  dns_provider_error: {
    status: 502,
    message: 'The DNS provider refused the change or could not be reached; try again later.',
  },
} as const satisfies ErrorCatalogue;

export type ManagerErrorCode = keyof typeof MANAGER_ERRORS;

export const { fail, failAs, errorsOf } = useCatalogue(MANAGER_ERRORS);
