/** Alert rules: their query key, reads and writes. */
import { useQuery } from '@tanstack/react-query';
import { api, type BodyOf } from './client.ts';
import type { AlertRule } from './types.ts';
import { useWrite, type WriteCallbacks } from './write.ts';

export const alertRuleKeys = { all: ['alert-rules'] as const };

export const useAlertRules = () =>
  useQuery({ queryKey: alertRuleKeys.all, queryFn: () => api.get('/alert-rules') });

export type AlertRuleBody = BodyOf<'post', '/alert-rules'>;

/** Creates a rule (`rule` null) or changes one. */
export const useSaveAlertRule = (
  rule: AlertRule | null,
  callbacks?: WriteCallbacks<unknown, AlertRuleBody>,
) =>
  useWrite(
    (body: AlertRuleBody) =>
      rule
        ? api.put('/alert-rules/{id}', { path: { id: rule.id }, body })
        : api.post('/alert-rules', { body }),
    [alertRuleKeys.all],
    callbacks,
  );

export const useDeleteAlertRule = (callbacks?: WriteCallbacks<unknown, AlertRule>) =>
  useWrite(
    (rule: AlertRule) => api.delete('/alert-rules/{id}', { path: { id: rule.id } }),
    [alertRuleKeys.all],
    callbacks,
  );
