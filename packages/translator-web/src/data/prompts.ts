/** AI prompts: query keys and reads. */
import { useQuery } from '@tanstack/react-query';
import { api } from '../api.ts';

export const promptKeys = { all: ['prompts'] as const };

export const usePrompts = () => useQuery({ queryKey: promptKeys.all, queryFn: () => api.get('/prompts') });
