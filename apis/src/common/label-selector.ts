// A Kubernetes LabelSelector (matchLabels and matchExpressions, ANDed) and whether a set of labels matches it, as the
// apiserver reads one: an empty selector matches everything; In and NotIn need values, Exists and DoesNotExist none.
import { z } from 'zod';
import { listSet, maxProperties, withCel } from './structural.js';

export const LABEL_SELECTOR_OPERATORS = ['In', 'NotIn', 'Exists', 'DoesNotExist'] as const;

const VALUES_MESSAGE = 'values must be non-empty for In and NotIn, and empty for Exists and DoesNotExist';

function valuesFit(requirement: { operator: (typeof LABEL_SELECTOR_OPERATORS)[number]; values?: readonly string[] | undefined }): boolean {
  const count = requirement.values?.length ?? 0;
  return requirement.operator === 'In' || requirement.operator === 'NotIn' ? count > 0 : count === 0;
}

export const labelSelectorRequirementSchema = withCel(
  z
    .object({
      key: z.string().min(1).max(317).describe('The label key the requirement applies to.'),
      operator: z.enum(LABEL_SELECTOR_OPERATORS).describe('How the key relates to the values.'),
      values: listSet(z.array(z.string().max(63)).max(64)).optional().describe('The values of In and NotIn; none for Exists and DoesNotExist.'),
    })
    .refine(valuesFit, { message: VALUES_MESSAGE, path: ['values'] })
    .describe('A requirement on one label.'),
  { rule: "self.operator in ['In', 'NotIn'] ? has(self.values) && size(self.values) > 0 : !has(self.values) || size(self.values) == 0", message: VALUES_MESSAGE, fieldPath: '.values' },
);

export const labelSelectorSchema = z
  .object({
    matchLabels: maxProperties(z.record(z.string().max(317), z.string().max(63)), 64).optional().describe('Labels that must all be present with these values.'),
    matchExpressions: z.array(labelSelectorRequirementSchema).max(32).optional().describe('Requirements that must all hold.'),
  })
  .describe('A label selector: matchLabels and matchExpressions must all hold; an empty selector matches everything.');
export type LabelSelector = z.infer<typeof labelSelectorSchema>;

/** Whether `labels` satisfy every part of `selector`. */
export function matchesLabelSelector(selector: LabelSelector, labels: Readonly<Record<string, string>>): boolean {
  const byLabels = Object.entries(selector.matchLabels ?? {}).every(([key, value]) => labels[key] === value);
  return (
    byLabels &&
    (selector.matchExpressions ?? []).every(({ key, operator, values = [] }) => {
      const value = labels[key];
      switch (operator) {
        case 'In':
          return value !== undefined && values.includes(value);
        case 'NotIn':
          return value === undefined || !values.includes(value);
        case 'Exists':
          return value !== undefined;
        case 'DoesNotExist':
          return value === undefined;
      }
    })
  );
}
