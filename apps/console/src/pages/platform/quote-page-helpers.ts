import { useEffect, useState } from 'react';
import { currentSession } from '../../api/session';

/*
 * Small pieces the quotes, cards and agents views share. They are general (they would sit in lib/ and components/);
 * they live here because those views were written apart from the shared code.
 */

/**
 * The mode of the signed-in credential (the routes do not pass it to pages): the sandbox-only parts of a page are
 * offered only where they can work. Undefined until the session answered.
 */
export function useSessionMode(): 'SANDBOX' | 'PRODUCTION' | undefined {
  const [mode, setMode] = useState<'SANDBOX' | 'PRODUCTION'>();
  useEffect(() => {
    let live = true;
    currentSession().then(
      (s) => live && s.principal.audience === 'platform' && setMode(s.principal.mode),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  return mode;
}

/** Ids typed into a text area, one per line or separated by commas or spaces, in the order given. */
export function idList(text: unknown): string[] {
  return String(text ?? '')
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** A route parameter as the id it names: wouter hands it over still percent-encoded (links encode the `:` of ids). */
export function decodedParam(raw: string | undefined): string {
  try {
    return decodeURIComponent(raw ?? '');
  } catch {
    return raw ?? '';
  }
}
