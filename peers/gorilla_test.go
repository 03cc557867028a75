package peers

import (
	"bytes"
	"io"
	"testing"

	"github.com/gorilla/websocket"

	"github.com/equivcheck/equivcheck/equiv/websockettest"
)

// peers:begin gorilla
// gorillaImpl is gorilla/websocket as a websockettest.Impl. Its masking
// function is unexported; a server Conn unmasks a client's frame with it
// as the frame's payload is read. The adapter sends a server connection
// one masked frame whose payload is pos&3 octets then b, reads and drops
// the pos&3 octets, then reads the rest into b itself: gorilla copies the
// payload there and unmasks b in place from key octet pos&3.
var gorillaImpl = websockettest.Impl{
	Name: "gorilla",
	Mask: func(b []byte, key [4]byte, pos int) int {
		c := gorillaConns.get()
		c.feed.Write(clientFrame(key, framePayload(b, pos)))
		_, msg, err := c.ws.NextReader()
		if err != nil {
			panic(err)
		}
		if _, err := io.ReadFull(msg, make([]byte, pos&3)); err != nil {
			panic(err)
		}
		if _, err := io.ReadFull(msg, b); err != nil {
			panic(err)
		}
		gorillaConns.put(c)
		return (pos + len(b)) & 3
	},
}

// gorillaConn is a server connection and the feed it reads frames from.
type gorillaConn struct {
	feed *bytes.Buffer
	ws   *websocket.Conn
}

var gorillaConns = newConnPool(func() gorillaConn {
	feed := new(bytes.Buffer)
	w, r := upgradeRequest(feed)
	ws, err := new(websocket.Upgrader).Upgrade(w, r, nil)
	if err != nil {
		panic(err)
	}
	return gorillaConn{feed, ws}
})

func TestPeerGorilla(t *testing.T) {
	t.Parallel()
	websockettest.Test(t, gorillaImpl, quick)
}

// peers:end gorilla
