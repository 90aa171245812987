/**
 * Settings where a person sees them: the model the app opens, chosen in the Model card and
 * saved; and, when this visit's address overrides a setting (`?model=use`), a notice saying so,
 * that it holds for this visit only, with Keep (save it) and Drop (back to the saved settings).
 */
import type { AppContext } from './context.ts'
import { byId, h } from './dom.ts'
import {
  type AppSettings,
  DEFAULT_APP_MODEL,
  SETTING_PARAMS,
  savedSettings,
  saveSettings,
  urlOverrides,
} from './settings.ts'

/** The models the Model card offers; any other saved or given id is listed as well. */
export const MODEL_CHOICES: readonly { value: string; label: string }[] = [
  { value: 'use', label: 'USE-lite (bundled, works offline from the first visit)' },
  { value: 'Xenova/bge-small-en-v1.5', label: 'bge-small (downloaded once; USE-lite until then)' },
  { value: 'ngram', label: 'n-gram hashing (spelling, not meaning)' },
  { value: 'none', label: 'none (keywords only)' },
]

export function mountSettingsPanel(ctx: AppContext): void {
  mountModelSetting(ctx)
  mountUrlNotice()
}

/** A select in the Model card: the saved model; a change saves it and reloads into it. */
function mountModelSetting(ctx: AppContext): void {
  const saved = savedSettings().model
  const select = h('select', { id: 'model-setting', name: 'model' })
  const values = new Set(MODEL_CHOICES.map((c) => c.value))
  const choices = [...MODEL_CHOICES]
  for (const extra of [saved, ctx.settings.model]) {
    if (!values.has(extra)) {
      values.add(extra)
      choices.push({ value: extra, label: extra })
    }
  }
  select.append(
    ...choices.map((c) =>
      h('option', {
        value: c.value,
        text: c.value === DEFAULT_APP_MODEL ? `${c.label} · default` : c.label,
      }),
    ),
  )
  select.value = saved
  select.addEventListener('change', () => {
    saveSettings({ model: select.value })
    // A new model means a new worker; the address must not override what was just chosen.
    location.assign(withoutParams(['model']))
  })
  byId('model-title').after(
    h(
      'label',
      { class: 'field' },
      h('span', { text: 'Model setting (saved on this device)' }),
      select,
    ),
  )
}

/** The banner for settings this visit's address gives; nothing when it gives none. */
function mountUrlNotice(): void {
  const overrides = urlOverrides()
  const settings = Object.keys(overrides) as (keyof AppSettings)[]
  if (settings.length === 0) return
  const keep = h('button', { type: 'button', id: 'url-settings-keep', text: 'Keep them' })
  const drop = h('button', {
    type: 'button',
    id: 'url-settings-drop',
    class: 'ghost',
    text: 'Use my saved settings',
  })
  const listed = settings.map((s) => `${SETTING_PARAMS[s]}=${overrides[s]}`).join(', ')
  const notice = h(
    'div',
    { id: 'url-settings', class: 'notice warn', role: 'status' },
    h('span', {
      text: `This visit uses settings from the address (${listed}); they are not saved, so the next visit without them opens your saved settings. `,
    }),
    keep,
    ' ',
    drop,
  )
  byId('fatal').after(notice)
  const params = settings.map((s) => SETTING_PARAMS[s])
  keep.addEventListener('click', () => {
    const patch: Partial<AppSettings> = {}
    if (overrides.memory !== undefined) patch.memory = overrides.memory
    if (overrides.model !== undefined) patch.model = overrides.model
    if (overrides.device !== undefined) patch.device = overrides.device as AppSettings['device']
    if (overrides.allowRemote !== undefined) patch.allowRemote = overrides.allowRemote !== '0'
    saveSettings(patch)
    location.assign(withoutParams(params))
  })
  drop.addEventListener('click', () => location.assign(withoutParams(params)))
}

/** This page's address without the named parameters. */
function withoutParams(params: readonly string[]): string {
  const url = new URL(location.href)
  for (const param of params) url.searchParams.delete(param)
  return url.href
}
