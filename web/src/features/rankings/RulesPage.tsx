import PlayArrow from '@mui/icons-material/PlayArrow';
import Save from '@mui/icons-material/Save';
import TaskAlt from '@mui/icons-material/TaskAlt';
import { Alert, Box, Button, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import type { PhaseRules, RulesDryRun } from '../../../../shared/schemas/rankings.js';
import { ApiError } from '../../api/client.js';
import { ConfirmDialog } from '../../components/list/ConfirmDialog.js';
import { type PhaseContext, usePhaseContext } from '../../components/phase/get-phase-context.js';
import { PhaseCrumbs } from '../../components/phase/PhaseCrumbs.js';
import { PhasePageState } from '../../components/phase/PhasePageState.js';
import { useSnackbar } from '../../lib/snackbar.js';
import { useApplyRules, useDryRun, useRules, useRulesStatus, useSaveRules } from './api/rules.js';
import { ClosePhaseCard } from './components/ClosePhaseCard.js';
import { DryRunView } from './components/DryRunView.js';
import { MissingSectors } from './components/MissingSectors.js';
import { PresetCards } from './components/PresetCards.js';
import { RankingState } from './components/RankingState.js';
import { RulesEditor } from './components/RulesEditor.js';
import { refusal, refusalText } from './errors.js';
import { phasePagePath, rankingPagePath } from './paths.js';
import {
  type DraftErrors,
  draftToRules,
  presetRules,
  type RulesDraft,
  rulesToDraft,
  sameRules,
} from './rules-form.js';

/** …/phases/{phaseId}/reguli: who goes on and who wins, as rules; dry run, apply, close. */
export function RulesPage() {
  const { examId = '', editionId = '', phaseId = '' } = useParams();
  const ids = { examId, editionId, phaseId };
  const context = usePhaseContext(ids);
  const rules = useRules(ids);
  if (!context.data || !rules.data) {
    return (
      <PhasePageState
        error={context.error ?? rules.error}
        back={phasePagePath(ids)}
        forbiddenKey="rankings.rules.forbidden"
      />
    );
  }
  // Coordinators may read the rules, but only the commission and the managers set them.
  if (!canSetRules(context.data.exam)) {
    return (
      <PhasePageState
        error={new ApiError(403, 'OPERATION_NOT_PERMITTED', '')}
        back={rankingPagePath(ids)}
        forbiddenKey="rankings.rules.forbidden"
      />
    );
  }
  return <RulesWorkspace {...context.data} stored={rules.data} />;
}

function RulesWorkspace({ exam, edition, phase, stored }: PhaseContext & { stored: PhaseRules }) {
  const { t, i18n } = useTranslation();
  const { notify } = useSnackbar();
  const ids = { examId: exam._id, editionId: edition._id, phaseId: phase._id };
  const [draft, setDraft] = useState<RulesDraft>(() => rulesToDraft(stored, i18n.language));
  const [errors, setErrors] = useState<DraftErrors>({});
  const [run, setRun] = useState<RulesDryRun | null>(null);
  const [applying, setApplying] = useState(false);
  const [acceptMissing, setAcceptMissing] = useState(false);
  const save = useSaveRules(ids);
  const dryRun = useDryRun(ids);
  const apply = useApplyRules(ids);
  const status = useRulesStatus(ids);
  const isClosed = phase.state === 'closed';
  const mayClose = exam.myRole === 'admin' || exam.myRole === 'examAdmin';

  const checked = draftToRules(draft);
  const isDirty = checked.rules === null || !sameRules(checked.rules, stored);

  const change = (patch: Partial<RulesDraft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    setErrors({});
  };

  /** The form's rules, or null with the errors shown on their fields. */
  const formRules = () => {
    const result = draftToRules(draft);
    setErrors(result.errors ?? {});
    if (!result.rules) notify('rankings.rules.fixFields', 'error');
    return result.rules;
  };

  const runDry = async (rules: PhaseRules | undefined) => {
    try {
      setRun(await dryRun.mutateAsync(rules));
      setAcceptMissing(false);
      void status.refetch();
    } catch (e) {
      setRun(null);
      const r = refusal(e, t);
      notify(r.key, 'error', r.values);
    }
  };

  const handleSave = async () => {
    const rules = formRules();
    if (!rules) return;
    try {
      const saved = await save.mutateAsync(rules);
      setDraft(rulesToDraft(saved, i18n.language));
      notify('rankings.rules.saved', 'success');
      await runDry(undefined);
    } catch (e) {
      if (e instanceof ApiError && e.code === 'PHASE_CLOSED') {
        notify('rankings.refusals.closedRules', 'error');
      } else {
        const r = refusal(e, t);
        notify(r.key, 'error', r.values);
      }
    }
  };

  const handleDryRun = () => {
    const rules = formRules();
    if (rules) void runDry(isDirty ? rules : undefined);
  };

  const handleApply = async () => {
    if (!run) return;
    try {
      const result = await apply.mutateAsync({
        fingerprint: run.fingerprint,
        acceptMissingSectors: acceptMissing,
      });
      setApplying(false);
      notify('rankings.apply.done', 'success', {
        changed: result.changed,
        admitted: result.admitted,
        rejected: result.rejected,
        prizes: result.prizesSet,
      });
      await runDry(undefined);
    } catch {
      // The dialog says why, and offers a new dry run when the outcome moved.
    }
  };

  const rerun = async () => {
    setApplying(false);
    await runDry(undefined);
  };

  const applyBlock = run && applyReason(run, isDirty, acceptMissing);

  return (
    <Stack spacing={2}>
      <Box>
        <PhaseCrumbs
          exam={exam}
          edition={edition}
          phase={phase}
          trail={[{ label: t('rankings.title'), to: rankingPagePath(ids) }]}
          current={t('rankings.rules.title')}
        />
        <Typography variant="h5" component="h1">
          {t('rankings.rules.title')}
        </Typography>
        <Typography color="text.secondary" sx={{ mt: 0.5 }}>
          {t('rankings.rules.intro')}
        </Typography>
      </Box>
      {isClosed && <Alert severity="info">{t('rankings.rules.closedNote')}</Alert>}
      {status.data?.outOfDate && status.data.appliedAt && (
        <Alert
          severity="warning"
          data-testid="rules-out-of-date"
          action={
            <Button
              color="inherit"
              size="small"
              disabled={dryRun.isPending}
              onClick={() => void runDry(undefined)}
            >
              {t('rankings.dryRun.again')}
            </Button>
          }
        >
          {t('rankings.rules.outOfDate', {
            count: status.data.changeCount,
            at: new Intl.DateTimeFormat(i18n.language, {
              dateStyle: 'medium',
              timeStyle: 'short',
            }).format(new Date(status.data.appliedAt)),
          })}
        </Alert>
      )}

      {!isClosed && (
        <PresetCards
          onUse={(preset) => {
            setDraft(rulesToDraft(presetRules(preset.rules, draft), i18n.language));
            setErrors({});
            notify('rankings.presets.loaded', 'info');
          }}
        />
      )}

      <RulesEditor draft={draft} errors={errors} onChange={change} locked={isClosed} />

      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'center' }}>
        <Button
          variant="contained"
          startIcon={<Save />}
          disabled={!isDirty || save.isPending}
          onClick={() => void handleSave()}
        >
          {t('rankings.rules.save')}
        </Button>
        <Button
          variant="outlined"
          startIcon={<PlayArrow />}
          disabled={dryRun.isPending}
          onClick={handleDryRun}
        >
          {t('rankings.dryRun.run')}
        </Button>
        <Typography variant="body2" color="text.secondary">
          {isDirty ? t('rankings.rules.unsaved') : t('rankings.rules.savedState')}
        </Typography>
      </Box>

      {run && (
        <>
          <RankingState
            scoreState={run.scoreState}
            phaseState={run.phaseState}
            awaitingItems={run.awaitingItems}
            runningAttempts={run.runningAttempts}
            appealEndDate={phase.appealEndDate}
          />
          <DryRunView run={run} />
          <MissingSectors
            students={run.missingSectors}
            accepted={acceptMissing}
            onAccept={setAcceptMissing}
          />
          <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap' }}>
            <Button
              variant="contained"
              color="success"
              startIcon={<TaskAlt />}
              disabled={applyBlock !== null}
              onClick={() => {
                apply.reset();
                setApplying(true);
              }}
            >
              {t('rankings.apply.button')}
            </Button>
            {applyBlock && (
              <Typography variant="body2" color="text.secondary" data-testid="apply-blocked">
                {t(applyBlock)}
              </Typography>
            )}
          </Box>
          <ConfirmDialog
            open={applying}
            title={t('rankings.apply.confirmTitle')}
            message={t('rankings.apply.confirmMessage', { count: run.changeCount })}
            confirmLabel={t('rankings.apply.button')}
            busy={apply.isPending}
            error={apply.error ? refusalText(apply.error, t) : undefined}
            extraActions={
              apply.error instanceof ApiError && apply.error.code === 'RULES_OUTCOME_CHANGED' ? (
                <Button onClick={() => void rerun()}>{t('rankings.dryRun.again')}</Button>
              ) : undefined
            }
            onConfirm={() => void handleApply()}
            onClose={() => setApplying(false)}
          />
        </>
      )}

      {mayClose && <ClosePhaseCard ids={ids} phase={phase} />}
    </Stack>
  );
}

const canSetRules = (exam: PhaseContext['exam']) =>
  exam.myRole === 'admin' || exam.myRole === 'examAdmin' || exam.myRole === 'staff';

/** Why the dry run cannot be applied now (a translation key), or null when it can. */
function applyReason(run: RulesDryRun, isDirty: boolean, acceptMissing: boolean): string | null {
  if (run.phaseState === 'closed') return 'rankings.apply.closed';
  if (!run.isStoredRules || isDirty) return 'rankings.apply.unsaved';
  if (run.rules.qualification === null && run.rules.awards === null)
    return 'rankings.apply.noRules';
  if (run.awaitingItems > 0 || run.runningAttempts > 0) return 'rankings.apply.incomplete';
  if (!run.canApply) return 'rankings.apply.cannot';
  if (run.changeCount === 0) return 'rankings.apply.nothing';
  if (run.missingSectors.length > 0 && !acceptMissing) return 'rankings.apply.missingSectors';
  return null;
}
