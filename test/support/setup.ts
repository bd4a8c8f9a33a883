// tsyringe needs the Reflect polyfill loaded before it; the tests compose services in this process.
import 'reflect-metadata';
