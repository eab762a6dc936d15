package top

import (
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/atreides-dev/atreides/internal/view"
)

// mode is the screen shown.
type mode int

const (
	modeList    mode = iota // sessions, decisions, background tasks
	modeSession             // one session's recent calls and decisions
	modeHelp                // the keys
)

// Model is top's state. Loads are commands (Model.load) whose results
// come back as messages, so Update never reads a file.
type Model struct {
	load  func(focus string) tea.Cmd
	now   func() time.Time
	loc   *time.Location
	color bool

	data    Data
	err     error
	loaded  bool
	loading bool // a load is in flight
	dirty   bool // a change came while it was: load again when it lands

	width, height int
	mode, back    mode   // back: where help returns to
	selected      string // the selected session's id, kept across reloads
	item          int    // the selected item of the session view, newest first
	filter        string
	typing        bool // the filter line has the keyboard
}

// Messages of the update loop.
type (
	// dataMsg is a load's result.
	dataMsg struct {
		data Data
		err  error
	}
	// changedMsg: the project's store or audit trail changed.
	changedMsg struct{}
	// tickMsg redraws the ages ("3s ago") once a second.
	tickMsg time.Time
)

// tickEvery is how often ages are redrawn without a change.
const tickEvery = time.Second

// newModel is a model that loads with load; color says whether the
// terminal takes colours (NO_COLOR unset).
func newModel(load func(focus string) tea.Cmd, color bool) Model {
	return Model{load: load, now: time.Now, loc: time.Local, color: color, width: 100, height: 30, loading: true}
}

// Init loads the first screen (newModel counts that load as in flight)
// and starts the clock.
func (m Model) Init() tea.Cmd {
	return tea.Batch(m.load(""), tick())
}

func tick() tea.Cmd {
	return tea.Tick(tickEvery, func(t time.Time) tea.Msg { return tickMsg(t) })
}

// Update handles one message.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
	case tickMsg:
		return m, tick()
	case changedMsg:
		return m.reload()
	case dataMsg:
		return m.landed(msg)
	case tea.KeyPressMsg:
		return m.key(msg)
	}
	return m, nil
}

// reload starts a load, or marks one due when a load is in flight: many
// changes while a load runs cost one more load, not one each.
func (m Model) reload() (tea.Model, tea.Cmd) {
	if m.loading {
		m.dirty = true
		return m, nil
	}
	m.loading = true
	return m, m.load(m.focus())
}

// landed takes a load's result; an error keeps the last data on screen
// and is shown in the header until a load succeeds.
func (m Model) landed(msg dataMsg) (tea.Model, tea.Cmd) {
	m.loading = false
	m.err = msg.err
	if msg.err == nil || msg.data.Root != "" {
		kept := m.selectedItem()
		m.data, m.loaded = msg.data, true
		m.keepItem(kept)
	}
	m.keepSelection()
	if m.dirty {
		m.dirty = false
		return m.reload()
	}
	return m, nil
}

// focus is the session whose timeline a load reads.
func (m Model) focus() string {
	if m.mode == modeSession || m.mode == modeHelp && m.back == modeSession {
		return m.selected
	}
	return ""
}

// keepSelection selects the first visible session when the selected one
// is gone or hidden by the filter. Only on the list: an open session
// stays open (the filter is then its items'), and says when it is gone.
func (m *Model) keepSelection() {
	if m.mode != modeList {
		return
	}
	rows := m.sessions()
	for _, r := range rows {
		if r.ID == m.selected {
			return
		}
	}
	m.selected = ""
	if len(rows) > 0 {
		m.selected = rows[0].ID
	}
}

// selectedItem is the session view's selected item, when one below the
// newest is selected (the newest stays selected as new items come).
func (m Model) selectedItem() *view.Item {
	items := m.items()
	if m.mode != modeSession || m.item <= 0 || m.item >= len(items) {
		return nil
	}
	return &items[m.item]
}

// keepItem keeps the selection on it as new items push it down.
func (m *Model) keepItem(it *view.Item) {
	if it == nil {
		return
	}
	for i, x := range m.items() {
		if x.Time.Equal(it.Time) && x.Kind == it.Kind && x.Title == it.Title {
			m.item = i
			return
		}
	}
}
