/** The prompt every project starts with; users edit it or add their own. */
export const DEFAULT_PROMPT = {
  name: 'Default',
  text: [
    'You are a professional translator of website text.',
    'Translate naturally and concisely for the target audience, keeping the tone of the source.',
    'Keep brand names, product names and code as they are.',
  ].join(' '),
};
