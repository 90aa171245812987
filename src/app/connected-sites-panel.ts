import type { SiteGrant, SiteGrants } from '../connect/index.ts'
import { busy, formatTime, h, keyedList, mountCard } from './dom.ts'

/**
 * The "Connected sites" card: every origin the user allowed (or blocked) to use this memory
 * through `connect.html`, with Revoke (the site's next call is refused, and it must ask again)
 * and Unblock (it may ask again). Changes made in a host page or another tab show up at once.
 */
export function mountConnectedSitesPanel(
  grants: SiteGrants,
  /** The memory's name, or a getter for it when the app can switch memories in place. */
  memoryName: string | (() => string),
): { refresh(): Promise<void> } {
  const name = typeof memoryName === 'string' ? () => memoryName : memoryName
  const list = h('ul', { id: 'sites-list', class: 'sites' })
  mountCard(
    'sites',
    'Connected sites',
    h('p', {
      class: 'muted small',
      text: 'Sites you allowed to use this memory from their own pages. Each reads and writes only its own namespace, origin:<site>.',
    }),
    list,
  )
  const refresh = async (): Promise<void> => {
    const sites = await grants.list(name())
    keyedList(list, sites, (site) => site.origin, siteItem, {
      version: (site) => `${site.state}:${site.decidedAt}:${site.lastUsedAt}:${site.namespaces}`,
      empty: () => h('li', { class: 'empty', text: 'No site has asked for this memory.' }),
    })
  }

  const siteItem = (site: SiteGrant): HTMLLIElement => {
    const allowed = site.state === 'allowed'
    const button = h('button', {
      type: 'button',
      class: allowed ? 'ghost danger' : 'ghost',
      text: allowed ? 'Revoke' : 'Unblock',
      'aria-label': `${allowed ? 'Revoke' : 'Unblock'} ${site.origin}`,
    })
    button.addEventListener('click', () => {
      void busy(button, () => grants.revoke(name(), site.origin)).then(refresh)
    })
    const used = site.lastUsedAt ? `last used ${formatTime(site.lastUsedAt)}` : 'never connected'
    return h(
      'li',
      { class: 'site', 'data-origin': site.origin, 'data-state': site.state },
      h(
        'div',
        { class: 'site-head' },
        h('strong', { class: 'site-origin', text: site.origin }),
        h('span', {
          class: `chip chip-${allowed ? 'type' : 'flag'}`,
          text: allowed ? 'allowed' : 'blocked',
        }),
      ),
      h('p', {
        class: 'muted small',
        text: allowed
          ? `${site.namespaces.join(', ')} · ${used}`
          : `blocked ${formatTime(site.decidedAt)}`,
      }),
      h('div', { class: 'actions' }, button),
    )
  }

  grants.onChange(() => void refresh())
  void refresh()
  return { refresh }
}
