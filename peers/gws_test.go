package peers

import (
	"bufio"
	"fmt"
	"testing"

	"github.com/lxzan/gws"

	"github.com/equivcheck/equivcheck/equiv/websockettest"
)

// peers:begin gws
// gwsImpl is lxzan/gws as a websockettest.Impl. Its masking function is
// in an internal package; a server Conn's ReadLoop, which runs until the
// connection ends, unmasks each client frame with it into a buffer of
// its own and hands the message to the handler's OnMessage. The adapter
// sends a server connection one masked frame whose payload is pos&3
// octets then b, and copies the message OnMessage receives, after those
// octets, into b.
var gwsImpl = websockettest.Impl{
	Name: "gws",
	Mask: func(b []byte, key [4]byte, pos int) int {
		c := gwsConns.get()
		c.conn.frames <- clientFrame(key, framePayload(b, pos))
		m := <-c.msgs
		if m == nil {
			panic("gws: the connection closed: " + c.closed)
		}
		copy(b, m[pos&3:])
		gwsConns.put(c)
		return (pos + len(b)) & 3
	},
}

// gwsConn is a server connection whose ReadLoop runs on a goroutine of
// its own: it reads frames sent on conn.frames and sends each message's
// payload on msgs, or nil once the connection has closed.
type gwsConn struct {
	gws.BuiltinEventHandler
	conn   *chanConn
	msgs   chan []byte
	closed string
}

func (c *gwsConn) OnMessage(_ *gws.Conn, m *gws.Message) {
	c.msgs <- append([]byte{}, m.Bytes()...) // never nil, which means closed
	m.Close()
}

func (c *gwsConn) OnClose(_ *gws.Conn, err error) {
	c.closed = fmt.Sprint(err)
	c.msgs <- nil
}

var gwsConns = &connPool[*gwsConn]{
	free: make(chan *gwsConn, 8),
	dial: func() *gwsConn {
		c := &gwsConn{conn: &chanConn{frames: make(chan []byte)}, msgs: make(chan []byte)}
		_, r := upgradeRequest(nil)
		ws, err := gws.NewUpgrader(c, &gws.ServerOption{ReadMaxPayloadSize: 1 << 30}).UpgradeFromConn(c.conn, bufio.NewReader(c.conn), r)
		if err != nil {
			panic(err)
		}
		go ws.ReadLoop()
		return c
	},
	close: func(c *gwsConn) { close(c.conn.frames); <-c.msgs },
}

func TestPeerGws(t *testing.T) {
	t.Parallel()
	websockettest.Test(t, gwsImpl, quick)
}

// peers:end gws
