import { mount } from 'svelte';
// Registers the element (before mounting, so Svelte sets `variables` as a property) and types it in Svelte markup.
import 'fx-sdk/svelte';
import App from './App.svelte';

mount(App, { target: document.getElementById('app')! });
