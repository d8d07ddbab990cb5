import type { ReactNode } from 'react';
import { useFieldArray, useFormContext, useWatch } from 'react-hook-form';
import {
  BULK_MESSAGES,
  BULK_TEMPLATE_LIMIT,
  newTestTemplate,
  type BulkTestsFormOutput,
  type BulkTestsFormValues,
} from '@ce/contract';
import { Button } from '../../../components/ui/button';
import { FileButton } from '../../../components/ui/file-button';
import { toast } from '../../../components/ui/toast-store';
import { downloadText } from '../../../lib/download';
import type { CatalogueAgent, GroupAgents } from '../agent-catalogue';
import { readTemplatesFile, templatesFileText } from '../template-file';
import { FIELD_LABELS, TemplateCard } from './template-card';

/** Step 3 of the bulk test creator: the test templates (one card each), exported to or imported from a file. */
export function TemplatesStep({
  variant,
  quickInfo,
  catalogue,
  groupAgents,
}: {
  variant: keyof typeof FIELD_LABELS;
  quickInfo: ReactNode;
  catalogue: CatalogueAgent[];
  groupAgents: GroupAgents[];
}) {
  const form = useFormContext<BulkTestsFormValues, unknown, BulkTestsFormOutput>();
  const cards = useFieldArray({ control: form.control, name: 'templates' });
  const templates = useWatch({ control: form.control, name: 'templates' });

  const removeCard = (index: number) => {
    if (cards.fields.length <= 1) toast.error(BULK_MESSAGES.templateRequired);
    else cards.remove(index);
  };
  const addCard = () => {
    if (cards.fields.length >= BULK_TEMPLATE_LIMIT)
      toast.warning(`At most ${BULK_TEMPLATE_LIMIT} templates in one session`);
    else cards.append(newTestTemplate(), { shouldFocus: false });
  };

  const importTemplates = async (file: File) => {
    const result = await readTemplatesFile(file);
    if (!result.ok) {
      toast.error(result.error, { title: 'Import failed' });
      return;
    }
    form.reset({ templates: result.templates });
    toast.success(`${result.templates.length} ${result.templates.length === 1 ? 'template' : 'templates'} imported`);
  };

  return (
    <section className="space-y-4" aria-label="Test Configuration">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-xl font-semibold">Test Configuration</h2>
        <div className="flex gap-2 text-sm">
          <Button size="sm" onClick={() => downloadText('bulk-test-templates.json', templatesFileText(templates))}>
            Export Templates
          </Button>
          <FileButton
            size="sm"
            inputLabel="Templates file"
            accept="application/json,.json"
            onFile={(file) => void importTemplates(file)}
          >
            Import Templates
          </FileButton>
        </div>
      </div>
      {quickInfo}
      {cards.fields.map((card, index) => (
        <TemplateCard
          key={card.id}
          index={index}
          onRemove={() => removeCard(index)}
          catalogue={catalogue}
          groupAgents={groupAgents}
          labels={FIELD_LABELS[variant]}
        />
      ))}
      <Button onClick={addCard}>Add Another Test Template</Button>
    </section>
  );
}
