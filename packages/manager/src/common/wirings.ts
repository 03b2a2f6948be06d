type Joined<T extends object[]> = T extends [infer First, ...infer Rest extends object[]]
  ? First & Joined<Rest>
  : unknown;

/**
 * The services of several wirings as one object. A name that two wirings define is a mistake, not an
 * override: spreading them would silently keep the last one, so this throws instead.
 */
export function joinWirings<T extends object[]>(...wirings: T): Joined<T> {
  const joined: Record<string, unknown> = {};
  for (const wiring of wirings) {
    for (const [name, service] of Object.entries(wiring)) {
      if (Object.hasOwn(joined, name)) throw new Error(`two wirings define the service "${name}"`);
      joined[name] = service;
    }
  }
  return joined as Joined<T>;
}
