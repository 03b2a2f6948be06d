// The page client's translation of a whole document, for the translator's server-rendered language pages
// (SEO mode): the same Scanner and Localizer the browser runs, so a page reads the same either way.
import type { Translation } from './api.ts';
import { Localizer, translationMap } from './localizer.ts';
import { parentOf, Scanner, type CrawlerConfig, type Unit } from './scanner.ts';

export interface DocumentTranslation {
  config: CrawlerConfig;
  language: string;
  translations: Translation[];
  /** Every phrase found (as the page client registers them), translated or not. */
  register(key: string, context: string, slots?: string[]): void;
}

/** `<template shadowrootmode>`: a shadow root written in HTML, whose children a DOM without one keeps. */
const isDeclarativeShadowRoot = (element: Element) =>
  element.tagName.toUpperCase() === 'TEMPLATE' && element.hasAttribute('shadowrootmode');

/**
 * The Scanner for a parsed document (no browser): a server-rendered shadow root, as a prerendered page
 * of web components holds them, is read as the shadow root it stands for — its text belongs to its host.
 */
class DocumentScanner extends Scanner {
  override skipped(element: Element): boolean {
    return !isDeclarativeShadowRoot(element) && super.skipped(element);
  }

  protected override visit(element: Element, units: Unit[]) {
    const host = isDeclarativeShadowRoot(element) ? parentOf(element) : null;
    if (host) this.visitChildren(element, host, units);
    else super.visit(element, units);
  }
}

/** Translates the head (title, descriptions) and body of `document` in place and marks its language. */
export function translateDocument(document: Document, options: DocumentTranslation): void {
  const localizer = new Localizer(new DocumentScanner(options.config), options.register);
  localizer.language = options.language;
  localizer.translations = translationMap(options.translations);
  localizer.process(document.head);
  localizer.process(document.body);
  document.documentElement.setAttribute('lang', options.language);
}
