import { useQuery } from '@tanstack/react-query';
import type { MyDiploma } from '../../../../../shared/schemas/diplomas.js';
import { api } from '../../../api/client.js';

export const myDiplomasKey = ['my-diplomas'] as const;

/** GET /diploma-generator/my-diplomas: a student's diplomas; a teacher's and their students'. */
export const getMyDiplomas = () => api<MyDiploma[]>('/diploma-generator/my-diplomas');

export const useMyDiplomas = () => useQuery({ queryKey: myDiplomasKey, queryFn: getMyDiplomas });
