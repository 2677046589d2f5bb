// Loaded into Node under Wine by scripts/test-windows (NODE_OPTIONS=--require): Wine 8's Winsock refuses the
// TCP keep-alive options libuv sets on a socket that is not connected yet, so every connection undici opens
// (it calls setKeepAlive right after net.connect) fails with `connect UNKNOWN`. Windows itself accepts them.
// Here a keep-alive asked for before the connection is set once it is connected: Wine's limit, not cssctl's.
'use strict';
const net = require('node:net');
const setKeepAlive = net.Socket.prototype.setKeepAlive;
net.Socket.prototype.setKeepAlive = function (...args) {
  if (this.connecting) {
    this.once('connect', () => setKeepAlive.apply(this, args));
    return this;
  }
  return setKeepAlive.apply(this, args);
};
