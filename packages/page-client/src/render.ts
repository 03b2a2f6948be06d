// The page client's translation of a whole document, for the translator's server-rendered language pages
// (SEO mode): the same Scanner and Localizer the browser runs, so a page reads the same either way.
import type { Translation } from './api.ts';
import { Localizer, translationMap } from './localizer.ts';
import { Scanner, type CrawlerConfig } from './scanner.ts';

export interface DocumentTranslation {
  config: CrawlerConfig;
  language: string;
  translations: Translation[];
  /** Every phrase found (as the page client registers them), translated or not. */
  register(key: string, context: string, slots?: string[]): void;
}

/** Translates the head (title, descriptions) and body of `document` in place and marks its language. */
export function translateDocument(document: Document, options: DocumentTranslation): void {
  const localizer = new Localizer(new Scanner(options.config), options.register);
  localizer.language = options.language;
  localizer.translations = translationMap(options.translations);
  localizer.process(document.head);
  localizer.process(document.body);
  document.documentElement.setAttribute('lang', options.language);
}
