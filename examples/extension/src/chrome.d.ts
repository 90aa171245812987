/**
 * The few `chrome.*` extension APIs this example uses, typed by hand so it needs no extra
 * package (`@types/chrome` has them all).
 */
declare namespace chrome {
  namespace tabs {
    interface Tab {
      id?: number
      url?: string
      title?: string
    }
  }
  namespace runtime {
    const id: string
    function getURL(path: string): string
    function getContexts(filter: { contextTypes: 'OFFSCREEN_DOCUMENT'[] }): Promise<unknown[]>
    const onInstalled: { addListener(callback: () => void): void }
  }
  namespace offscreen {
    function createDocument(parameters: {
      url: string
      reasons: 'WORKERS'[]
      justification: string
    }): Promise<void>
  }
  namespace contextMenus {
    interface OnClickData {
      menuItemId: string | number
      selectionText?: string
      pageUrl?: string
      frameUrl?: string
    }
    function create(properties: { id: string; title: string; contexts: 'selection'[] }): void
    function update(id: string, properties: { title?: string }): Promise<void>
    function removeAll(): Promise<void>
    const onClicked: {
      addListener(callback: (info: OnClickData, tab?: tabs.Tab) => void): void
    }
  }
  namespace sidePanel {
    function setPanelBehavior(behavior: { openPanelOnActionClick: boolean }): Promise<void>
  }
  namespace action {
    function setBadgeText(details: { text: string }): Promise<void>
    function setTitle(details: { title: string }): Promise<void>
  }
}
