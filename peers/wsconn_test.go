package peers

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"io"
	"net"
	"net/http"
	"time"
)

// The WebSocket libraries below unmask a client's frames only inside
// their connections, after an HTTP handshake. These helpers give them one
// masked frame through a net.Conn that holds it and an
// http.ResponseWriter that hands that connection over (http.Hijacker),
// with the handshake request a client would send (RFC 6455 §4.1).

// clientFrame returns a final binary frame from a client (RFC 6455
// §5.2): FIN, opcode 2, the MASK bit, the payload length in 7, 7+16 or
// 7+64 bits, key, then payload, which the receiver unmasks with key from
// key octet 0.
func clientFrame(key [4]byte, payload []byte) []byte {
	f := []byte{0x82}
	switch n := len(payload); {
	case n < 126:
		f = append(f, 0x80|byte(n))
	case n <= 0xffff:
		f = binary.BigEndian.AppendUint16(append(f, 0x80|126), uint16(n))
	default:
		f = binary.BigEndian.AppendUint64(append(f, 0x80|127), uint64(n))
	}
	return append(append(f, key[:]...), payload...)
}

// framePayload is what a client frame's payload must be for the receiver
// to unmask b from key octet pos&3 (RFC 6455 §5.3): pos&3 octets that the
// adapter reads and drops, then b.
func framePayload(b []byte, pos int) []byte {
	return append(make([]byte, pos&3, pos&3+len(b)), b...)
}

// frameConn is a net.Conn whose reads return the frames written to feed,
// then io.EOF, and whose writes (the handshake's response) are dropped.
// An adapter appends one frame to feed and reads the message to its end
// before the next, so the connection never reads an empty feed.
type frameConn struct{ feed *bytes.Buffer }

func (c *frameConn) Read(p []byte) (int, error)       { return c.feed.Read(p) }
func (c *frameConn) Write(p []byte) (int, error)      { return len(p), nil }
func (c *frameConn) Close() error                     { return nil }
func (c *frameConn) LocalAddr() net.Addr              { return &net.TCPAddr{} }
func (c *frameConn) RemoteAddr() net.Addr             { return &net.TCPAddr{} }
func (c *frameConn) SetDeadline(time.Time) error      { return nil }
func (c *frameConn) SetReadDeadline(time.Time) error  { return nil }
func (c *frameConn) SetWriteDeadline(time.Time) error { return nil }

// hijacker is an http.ResponseWriter whose Hijack returns conn.
type hijacker struct {
	conn   net.Conn
	header http.Header
}

func (h *hijacker) Header() http.Header         { return h.header }
func (h *hijacker) Write(p []byte) (int, error) { return len(p), nil }
func (h *hijacker) WriteHeader(int)             {}
func (h *hijacker) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	return h.conn, bufio.NewReadWriter(bufio.NewReader(h.conn), bufio.NewWriter(h.conn)), nil
}

// upgradeRequest returns a client's opening handshake, ready for a
// server's Upgrade or Accept, and the writer that hijacks a connection
// reading from feed.
func upgradeRequest(feed *bytes.Buffer) (*hijacker, *http.Request) {
	r, err := http.NewRequest(http.MethodGet, "http://localhost/", nil)
	if err != nil {
		panic(err)
	}
	r.Header.Set("Connection", "Upgrade")
	r.Header.Set("Upgrade", "websocket")
	r.Header.Set("Sec-WebSocket-Version", "13")
	r.Header.Set("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==") // RFC 6455 §1.3
	return &hijacker{conn: &frameConn{feed: feed}, header: http.Header{}}, r
}

// connPool keeps the server connections that adapters have finished
// with, so that each Mask call costs a frame rather than a handshake
// (about 50-80 µs). A call that panics does not return its connection.
type connPool[C any] struct {
	free  chan C
	dial  func() C
	close func(C) // for a connection that does not fit in free; may be nil
}

func newConnPool[C any](dial func() C) *connPool[C] {
	return &connPool[C]{free: make(chan C, 8), dial: dial}
}

func (p *connPool[C]) get() C {
	select {
	case c := <-p.free:
		return c
	default:
		return p.dial()
	}
}

func (p *connPool[C]) put(c C) {
	select {
	case p.free <- c:
	default:
		if p.close != nil {
			p.close(c)
		}
	}
}

// chanConn is a frameConn whose reads wait for the next frame sent on
// frames, and return io.EOF once frames is closed: for a library whose
// read loop runs on a goroutine of its own.
type chanConn struct {
	frameConn
	frames chan []byte
	cur    []byte
}

func (c *chanConn) Read(p []byte) (int, error) {
	if len(c.cur) == 0 {
		f, ok := <-c.frames
		if !ok {
			return 0, io.EOF
		}
		c.cur = f
	}
	n := copy(p, c.cur)
	c.cur = c.cur[n:]
	return n, nil
}
