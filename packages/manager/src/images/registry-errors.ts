import {
  BodyTooLargeError,
  formatBytes,
  OutboundError,
  readTextLimited,
  type OutboundResponse,
} from '@app/server-kit';
import { fail } from '../errors/catalogue.ts';

export const imageNotFound = (message: string) => fail('image_not_found', message);
export const registryError = (message: string) => fail('registry_error', message);

/**
 * What a client is told whenever a registry could not be reached or was refused — the same words
 * whatever the reason (closed port, refused address, DNS, TLS, time-out), so the answer maps nothing.
 */
export const registryUnreachable = () =>
  registryError(
    'The image registry could not be reached. Check the image reference; a registry on a private ' +
      'network must be allowlisted by an administrator (Settings, registry allowlist).',
  );

/**
 * A registry answer's body, at most `maxBytes`: a larger one is a registry_error saying so; a body that
 * stops arriving (time-out, dropped connection) is an OutboundError like any unreachable registry.
 */
export async function readRegistryBody(
  response: OutboundResponse,
  maxBytes: number,
  what: string,
): Promise<string> {
  try {
    return await readTextLimited(response, maxBytes);
  } catch (error) {
    if (error instanceof BodyTooLargeError) {
      throw registryError(`The registry's answer for ${what} is larger than ${formatBytes(maxBytes)}.`);
    }
    throw new OutboundError(`reading ${what}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
