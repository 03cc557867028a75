package peers

import (
	"bytes"
	"context"
	"io"
	"testing"

	"github.com/coder/websocket"

	"github.com/equivcheck/equivcheck/equiv/websockettest"
)

// peers:begin coder
// coderImpl is coder/websocket as a websockettest.Impl. Its masking
// function is unexported (and its amd64 assembly not called: mask_asm.go
// returns maskGo's result, "Will enable in v1.9.0"); a server Conn
// unmasks a client's frame with it as the payload is read. The adapter
// sends a server connection one masked frame whose payload is pos&3
// octets then b, reads and drops the pos&3 octets, then reads the rest
// into b itself, where coder unmasks it in place, and reads the end of
// the message (coder's next Reader wants it read to completion).
var coderImpl = websockettest.Impl{
	Name: "coder",
	Mask: func(b []byte, key [4]byte, pos int) int {
		c := coderConns.get()
		c.feed.Write(clientFrame(key, framePayload(b, pos)))
		_, msg, err := c.ws.Reader(context.Background())
		if err != nil {
			panic(err)
		}
		if _, err := io.ReadFull(msg, make([]byte, pos&3)); err != nil {
			panic(err)
		}
		if _, err := io.ReadFull(msg, b); err != nil {
			panic(err)
		}
		if n, err := msg.Read(make([]byte, 1)); n != 0 || err != io.EOF {
			panic(err)
		}
		coderConns.put(c)
		return (pos + len(b)) & 3
	},
}

// coderConn is a server connection and the feed it reads frames from.
type coderConn struct {
	feed *bytes.Buffer
	ws   *websocket.Conn
}

var coderConns = newConnPool(func() coderConn {
	feed := new(bytes.Buffer)
	w, r := upgradeRequest(feed)
	ws, err := websocket.Accept(w, r, nil)
	if err != nil {
		panic(err)
	}
	ws.SetReadLimit(-1)
	return coderConn{feed, ws}
})

func TestPeerCoder(t *testing.T) {
	t.Parallel()
	websockettest.Test(t, coderImpl, quick)
}

// peers:end coder
