/** The glossary: query keys and reads. */
import { useQuery } from '@tanstack/react-query';
import { api } from '../api.ts';

export const glossaryKeys = { all: ['glossary'] as const };

export const useGlossary = () => useQuery({ queryKey: glossaryKeys.all, queryFn: () => api.get('/glossary') });
