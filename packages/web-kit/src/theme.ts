import {
  createTheme,
  darken,
  lighten,
  luminance,
  type AnchorProps,
  type CSSVariablesResolver,
  type MantineColor,
  type MantineColorsTuple,
  type ModalProps,
} from '@mantine/core';

/**
 * WCAG AA asks 4.5:1 for text; a little more leaves room for the light variants' tinted backgrounds and
 * for rounding in the browser's colour maths.
 */
const TARGET = 4.7;

const contrast = (a: string, b: string) => {
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (high + 0.05) / (low + 0.05);
};

/**
 * The first of `candidates` that reads on `background`, or the last one darkened (or lightened, toward
 * a dark background) step by step until it does.
 */
function readable(candidates: string[], background: string): string {
  const found = candidates.find((color) => contrast(color, background) >= TARGET);
  if (found) return found;
  const last = candidates.at(-1)!;
  const shift = luminance(background) > 0.5 ? darken : lighten;
  let color = last;
  for (let amount = 0.05; contrast(color, background) < TARGET && amount < 1; amount += 0.05)
    color = shift(last, amount);
  return color;
}

/**
 * Mantine's colours as the components use them (filled buttons and badges, light badges and alerts,
 * coloured text, outlines), each chosen to read at AA: white text on `filled`, `strong` on the tinted
 * light background and on the page. Mantine's defaults (shade 6 under white, shade 9 on shade 1) fall
 * to 1.9–3.6:1 for blue, green, yellow and orange.
 */
function colourVariables(name: string, shades: MantineColorsTuple, scheme: 'light' | 'dark') {
  const filled = readable([shades[6], shades[7], shades[8], shades[9]], '#ffffff');
  const hover = darken(filled, 0.12);
  if (scheme === 'light') {
    const strong = readable([shades[7], shades[8], shades[9]], shades[1]);
    return {
      [`--mantine-color-${name}-filled`]: filled,
      [`--mantine-color-${name}-filled-hover`]: hover,
      [`--mantine-color-${name}-text`]: strong,
      [`--mantine-color-${name}-light-color`]: strong,
      [`--mantine-color-${name}-outline`]: strong,
    };
  }
  const strong = readable([shades[4], shades[3], shades[2], shades[1], shades[0]], DARK_BODY);
  return {
    [`--mantine-color-${name}-filled`]: filled,
    [`--mantine-color-${name}-filled-hover`]: hover,
    [`--mantine-color-${name}-text`]: strong,
    [`--mantine-color-${name}-outline`]: strong,
  };
}

/** Mantine's dark page background (dark 7). */
const DARK_BODY = '#242424';
/** Mantine's dark input background (dark 6), a little lighter than the page. */
const DARK_INPUT = '#2e2e2e';

const resolver =
  (primaryColor: MantineColor): CSSVariablesResolver =>
  (theme) => {
    const forScheme = (scheme: 'light' | 'dark') =>
      Object.assign(
        {},
        ...Object.entries(theme.colors).map(([name, shades]) => colourVariables(name, shades, scheme)),
      ) as Record<string, string>;
    const light = forScheme('light');
    const dark = forScheme('dark');
    const gray = theme.colors.gray;
    return {
      variables: {},
      light: {
        ...light,
        '--mantine-color-anchor': light[`--mantine-color-${primaryColor}-text`]!,
        '--mantine-color-dimmed': readable([gray[6], gray[7]], '#ffffff'),
        // The lightest grey that reads at AA: gray 7 (8.2:1) looked nearly as dark as a value.
        '--mantine-color-placeholder': readable([gray[6]], '#ffffff'),
      },
      dark: {
        ...dark,
        '--mantine-color-anchor': dark[`--mantine-color-${primaryColor}-text`]!,
        '--mantine-color-dimmed': readable([theme.colors.dark[2], theme.colors.dark[1]], DARK_BODY),
        '--mantine-color-placeholder': readable([theme.colors.dark[2]], DARK_INPUT),
      },
    };
  };

/** The web clients' Mantine theme, and the colour variables that make it pass WCAG AA in both schemes. */
export function accessibleTheme(primaryColor: MantineColor) {
  return {
    theme: createTheme({
      primaryColor,
      defaultRadius: 'sm',
      // Plain objects, not Anchor.extend(…) and Modal.extend(…): those would put the components (the
      // modal with its scroll area and floating-ui, 20 kB compressed) into the first page's script.
      components: {
        // In the dark scheme no link colour contrasts 3:1 with the text around it as well as 4.5:1 with
        // the page: links are told apart by their underline.
        Anchor: { defaultProps: { underline: 'always' } satisfies Partial<AnchorProps> },
        // Mantine's close button is an icon alone: without this a screen reader announces "button".
        Modal: {
          defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } satisfies Partial<ModalProps>,
        },
      },
    }),
    cssVariablesResolver: resolver(primaryColor),
  };
}
