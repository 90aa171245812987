import { h, mountCard } from './dom.ts'

/**
 * The "Model" card's frame: the facts, the download and backfill bars and the keyword-only
 * notice, by the ids `model-panel.ts` fills in and `settings-panel.ts` adds the model setting to.
 */
export function mountModelCard(): void {
  const fact = (label: string, id: string) => [h('dt', { text: label }), h('dd', { id, text: '—' })]
  const bar = (wrap: string, label: [string, string], pct: string, progress: string) =>
    h(
      'div',
      { class: 'progress', id: wrap, hidden: true },
      h(
        'div',
        { class: 'progress-label' },
        h('span', { id: label[0], text: label[1] }),
        h('span', { id: pct }),
      ),
      h('progress', { id: progress, max: 1, value: 0 }),
    )
  const download = bar(
    'model-progress-wrap',
    ['model-progress-file', 'Downloading'],
    'model-progress-pct',
    'model-progress',
  )
  download.querySelector('#model-progress-pct')!.textContent = '0%'
  mountCard(
    'model',
    'Model',
    h(
      'dl',
      { class: 'facts' },
      ...fact('Name', 'model-name'),
      ...fact('Device', 'model-device'),
      ...fact('State', 'model-state'),
    ),
    download,
    bar(
      'backfill-wrap',
      ['backfill-label', 'Embedding memories'],
      'backfill-pct',
      'backfill-progress',
    ),
    h('p', {
      id: 'model-notice',
      class: 'notice warn',
      hidden: true,
      text: 'Keyword-only until the model is ready.',
    }),
  )
}
