<?php

declare(strict_types=1);

namespace RLock\Bridge\Laravel;

use Illuminate\Support\ServiceProvider;

/**
 * Registers ReleaseAllListener (one for the application, with its logger) on the events that
 * end a request, task, tick or job in a long-running Laravel worker: ReleaseAllListener::EVENTS,
 * or the list in the config key `rlock.release_after` when the application has one. Add it
 * to config/app.php's providers:
 *
 *     RLock\Bridge\Laravel\ReleaseAllServiceProvider::class,
 */
class ReleaseAllServiceProvider extends ServiceProvider
{
    public function register()
    {
        $this->app->singleton(ReleaseAllListener::class,
            fn ($app) => new ReleaseAllListener($app->bound('log') ? $app->make('log') : null));
    }

    public function boot()
    {
        $events = $this->app->bound('config') ? $this->app->make('config')->get('rlock.release_after') : null;
        $this->app->make('events')->listen($events ?? ReleaseAllListener::EVENTS, [ReleaseAllListener::class, 'handle']);
    }
}
